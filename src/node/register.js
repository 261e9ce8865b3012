// `node --import ./src/node/register.js file.ts`: run TypeScript sources with `?raw` kernel imports,
// exactly as the `reyes` command does.
import { register } from 'node:module';
import { register as registerTypeScript } from 'tsx/esm/api';

register('./raw-import-hook.js', import.meta.url);
registerTypeScript();
