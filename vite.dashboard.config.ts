import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard SPA: built into dist/dashboard and served by the Hono server for every
// non-API path. In `npm run dev`, API calls are proxied to the server on :3000.
export default defineConfig({
  root: 'dashboard',
  plugins: [react(), tailwindcss()],
  build: { outDir: '../dist/dashboard', emptyOutDir: true },
  server: {
    proxy: {
      // Only real API calls go to the server: the dashboard's own dashboard/api/*.ts modules share the prefix.
      '^/api/(?!.*\\.tsx?(\\?|$))': 'http://localhost:3000',
      // The embedded estimator's page and script are the server's, not the SPA's, so Preview works in dev too.
      '/embed/': 'http://localhost:3000',
      '^/widget(\\.js|/)': 'http://localhost:3000',
    },
  },
});
