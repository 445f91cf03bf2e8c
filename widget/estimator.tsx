import r2wc from '@r2wc/react-to-web-component';
import { ELEMENT_TAG } from '../core/embed';
import { TreeEstimator } from './tree-estimator';

/**
 * The estimator bundle's entry (dist/widget/assets/estimator-[hash].js): registers
 * <tree-estimator slug="..." [frame]> with an open shadow root. widget.js loads it when
 * an element is near the viewport; /embed/{slug} loads it directly.
 */
if (!customElements.get(ELEMENT_TAG)) {
  customElements.define(
    ELEMENT_TAG,
    r2wc(TreeEstimator, { shadow: 'open', props: { slug: 'string', frame: 'boolean' } }),
  );
}
