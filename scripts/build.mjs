// npm run build: the web client (dist/web) and the server's render of the pages (dist/ssr).
import { build } from 'vite';

const logLevel = process.argv.includes('--quiet') ? 'warn' : 'info';
await build({ logLevel });
await build({ logLevel, build: { ssr: 'entry-server.tsx', outDir: '../../dist/ssr', emptyOutDir: true, sourcemap: true } });
