import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// `npm run dev:web` serves the page on 5173 and hands API calls to a running API (RESEARCH_API_URL, by
// default the one `npm start` runs), so the page and the API share an origin as they do when the API
// serves the built page.
const api = process.env.RESEARCH_API_URL ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/v1': { target: api, changeOrigin: true } },
  },
});
