// Node module hook: `import text from './kernel.wgsl?raw'` gives the file's text as the default
// export, as Vite does, so kernels load the same way in the page, in Vitest and on the command line.
import { readFile } from 'node:fs/promises';

export async function resolve(specifier, context, nextResolve) {
  if (!specifier.endsWith('?raw')) return nextResolve(specifier, context);
  const url = new URL(specifier, context.parentURL);
  return { url: url.href, shortCircuit: true };
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('?raw')) return nextLoad(url, context);
  const text = await readFile(new URL(url.slice(0, -'?raw'.length)), 'utf8');
  return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
