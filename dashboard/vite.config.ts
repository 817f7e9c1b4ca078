import { defineConfig, defaultClientConditions } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the API at /dashboard (src/http/dashboard.ts); everything is bundled, nothing is
// loaded from another host (the page's Content-Security-Policy allows only this origin).
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  // The SDK from its sources (its exports map's "@recruiting/source" condition), so the dashboard
  // builds on a fresh clone without the SDK's own build (sdk/dist, made only for its package).
  resolve: { conditions: ['@recruiting/source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000, sourcemap: false },
  server: { proxy: { '/public': 'http://localhost:3000', '/settings': 'http://localhost:3000', '/oauth2': 'http://localhost:3000', '/sign-in': 'http://localhost:3000' } },
});
