import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The embeddable <tree-estimator> custom element, built as one script (widget.js).
// A placeholder until the embed issue; its build already runs in `npm run build`.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    lib: { entry: 'widget/main.ts', name: 'TreeEstimator', formats: ['iife'], fileName: () => 'widget.js' },
  },
});
