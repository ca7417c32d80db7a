import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The app is served by the service under /ui/ (src/http/ui/static-app.ts) from dist/web. Hashed names under
 * assets/ let the server cache them for a year; nothing is loaded from anywhere but the server.
 */
export default defineConfig({
  base: '/ui/',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Chromium, Firefox and Safari all preload modules natively: no polyfill script in the page.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1200,
    sourcemap: false,
  },
  worker: { format: 'es' },
  server: { proxy: { '/graphql': 'http://127.0.0.1:8080', '/api': 'http://127.0.0.1:8080', '/ui/session': 'http://127.0.0.1:8080' } },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
