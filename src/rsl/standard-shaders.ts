// The standard shaders of shaders/*.sl, imported as text so the page, Vitest and Node load them alike.
// A shader named in a RIB is looked up in the scene's search path first, then here.
import ambientlight from '../../shaders/ambientlight.sl?raw';
import background from '../../shaders/background.sl?raw';
import bumpy from '../../shaders/bumpy.sl?raw';
import constant from '../../shaders/constant.sl?raw';
import dented from '../../shaders/dented.sl?raw';
import depthcue from '../../shaders/depthcue.sl?raw';
import distantlight from '../../shaders/distantlight.sl?raw';
import fog from '../../shaders/fog.sl?raw';
import matte from '../../shaders/matte.sl?raw';
import metal from '../../shaders/metal.sl?raw';
import paintedplastic from '../../shaders/paintedplastic.sl?raw';
import plastic from '../../shaders/plastic.sl?raw';
import pointlight from '../../shaders/pointlight.sl?raw';
import shadowdistant from '../../shaders/shadowdistant.sl?raw';
import shadowpoint from '../../shaders/shadowpoint.sl?raw';
import shadowspot from '../../shaders/shadowspot.sl?raw';
import shinymetal from '../../shaders/shinymetal.sl?raw';
import spotlight from '../../shaders/spotlight.sl?raw';

export const STANDARD_SHADERS: Readonly<Record<string, string>> = {
  ambientlight, background, bumpy, constant, dented, depthcue, distantlight, fog, matte, metal, paintedplastic, plastic,
  pointlight, shadowdistant, shadowpoint, shadowspot, shinymetal, spotlight,
};

/** The text of a standard shader by name (without ".sl"), or undefined. */
export function standardShaderSource(name: string): string | undefined {
  return Object.hasOwn(STANDARD_SHADERS, name) ? STANDARD_SHADERS[name] : undefined;
}
