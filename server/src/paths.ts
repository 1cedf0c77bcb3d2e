import { fileURLToPath } from 'node:url';

/** The repository root, independent of the working directory the server was started from. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where `npm run build` writes the web app. */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));
