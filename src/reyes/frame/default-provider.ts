// The shading provider of renders that bring none: compiled RSL with the standard shaders, one
// compile cache shared by every such render.
import { RslShadingProvider } from '../shading/rsl-provider.ts';

let standardProvider: RslShadingProvider | undefined;

/** One provider (and compile cache) for every render that does not bring its own. */
export function defaultProvider(): RslShadingProvider {
  standardProvider ??= new RslShadingProvider();
  return standardProvider;
}
