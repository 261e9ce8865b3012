// Node only (the page passes its own lookup): RSL shading with shader files found on disk. Search
// path entries relative to the scene (e.g. Option "searchpath" "shader" ["shaders:&"]) are taken
// from the scene's folder; includes resolve within the same folders.
import path from 'node:path';
import { fileIncludeResolver, findShaderFile } from '../../rsl/node-resolver.ts';
import { RslShadingProvider } from './rsl-provider.ts';

export interface NodeShadingOptions {
  /** The folder of the scene file: relative search path entries start there. */
  sceneDir: string;
  /** --shader-path folders. */
  shaderPath?: readonly string[];
}

export function nodeRslShading({ sceneDir, shaderPath = [] }: NodeShadingOptions): RslShadingProvider {
  const configured = shaderPath.map((d) => path.resolve(d));
  const absolute = (dirs: readonly string[]): string[] => dirs.map((d) => path.resolve(sceneDir, d));
  // Includes may come from any folder a RIB could name: the configured ones and the scene's.
  const resolveInclude = fileIncludeResolver([...configured, sceneDir]);
  return new RslShadingProvider({
    searchPath: configured,
    lookup: (name, searchPath) => findShaderFile(name, absolute(searchPath)),
    resolveInclude,
  });
}
