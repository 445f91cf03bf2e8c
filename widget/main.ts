/**
 * Placeholder for the embeddable <tree-estimator> element (built from React with
 * @r2wc/react-to-web-component in the embed issue). It registers the element so
 * host pages that already include widget.js do not break.
 */
class TreeEstimatorPlaceholder extends HTMLElement {
  connectedCallback(): void {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    root.textContent = 'TreeAnalyzer Pro estimator is coming soon.';
  }
}

if (!customElements.get('tree-estimator')) {
  customElements.define('tree-estimator', TreeEstimatorPlaceholder);
}
