// Node only (the page passes its own lookup): RSL shading with shader files found on disk. The
// shader search path is PRMan's and Aqsis's: by default the scene's folder, then --shader-path,
// then the standard shaders (which the provider falls back to). In Option "searchpath" "shader",
// "&" is the path before (the scene builder substitutes it) and "@" the default; entries relative
// to the scene start in its folder. Folders outside the scene's tree and --shader-path are not
// searched, so a scene reads shaders only where it may read files.
import path from 'node:path';
import { fileIncludeResolver, findShaderFile } from '../../rsl/node-resolver.ts';
import { RslShadingProvider } from './rsl-provider.ts';
import type { TextureRegistry } from '../../texture/texture-registry.ts';
import type { ShaderLookup } from './rsl-provider.ts';

export interface NodeShadingOptions {
  /** The folder of the scene file: relative search path entries start there. */
  sceneDir: string;
  /** --shader-path folders. */
  shaderPath?: readonly string[];
  /** The texture maps shaders may name. */
  textures?: TextureRegistry;
}

/** Stands for the default search path in what the provider hands the lookup. */
const DEFAULT_ENTRY = '@';

function inside(root: string, dir: string): boolean {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The folders a search path names, "@" and "&" expanded to the default, confined to the roots. */
export function shaderFolders(entries: readonly string[], { sceneDir, shaderPath = [] }: NodeShadingOptions): string[] {
  const scene = path.resolve(sceneDir);
  const defaults = [scene, ...shaderPath.map((d) => path.resolve(d))];
  const folders: string[] = [];
  for (const entry of entries) {
    for (const dir of entry === DEFAULT_ENTRY || entry === '&' ? defaults : [path.resolve(scene, entry)]) {
      if (!folders.includes(dir) && defaults.some((root) => inside(root, dir))) folders.push(dir);
    }
  }
  return folders;
}

export function nodeShaderLookup(options: NodeShadingOptions): ShaderLookup {
  return (name, searchPath) => findShaderFile(name, shaderFolders(searchPath, options));
}

export function nodeRslShading(options: NodeShadingOptions): RslShadingProvider {
  const { sceneDir, shaderPath = [] } = options;
  // Includes may come from any folder a RIB could name: the configured ones and the scene's.
  const resolveInclude = fileIncludeResolver([...shaderPath.map((d) => path.resolve(d)), path.resolve(sceneDir)]);
  return new RslShadingProvider({
    // The provider puts this where a RIB's "&" stands; the lookup expands it.
    searchPath: [DEFAULT_ENTRY],
    lookup: nodeShaderLookup(options),
    resolveInclude,
    ...(options.textures ? { textures: options.textures } : {}),
  });
}
