// The perf scenes of issue 15: shared ribtools scenes at a raised Format with `PixelSamples 4 4`
// and a single Display, so both renderers do the same work and write one picture.

export interface PerfScene {
  name: string;
  source: string;
  width: number;
  height: number;
}

export const PERF_SCENES: PerfScene[] = [
  { name: 'spheres', source: 'scenes/ribtools/SphereDistantRGBLights.rib', width: 640, height: 480 },
  { name: 'uteapot', source: 'scenes/ribtools/uteapot.rib', width: 1280, height: 800 },
  { name: 'dragonhead', source: 'scenes/ribtools/dragonhead.rib', width: 1280, height: 960 },
  { name: 'Airplane', source: 'scenes/ribtools/Airplane.rib', width: 1280, height: 960 },
  { name: 'Elephant', source: 'scenes/ribtools/Elephant.rib', width: 1024, height: 768 },
];

/** `rib` with its Format, PixelSamples and Display requests before WorldBegin replaced by the perf settings. */
export function perfScene(rib: string, scene: PerfScene, display: string): string {
  const lines = rib.split('\n');
  const world = lines.findIndex((line) => /^\s*WorldBegin\b/.test(line));
  if (world < 0) throw new Error(`${scene.source}: no WorldBegin`);
  const options = lines.slice(0, world).filter((line) => !/^\s*(Format|PixelSamples|Display)\b/.test(line));
  const header = options.findIndex((line) => !line.startsWith('##'));
  options.splice(header < 0 ? options.length : header, 0,
    `Format ${scene.width} ${scene.height} 1`, 'PixelSamples 4 4', `Display "${display}" "file" "rgba"`);
  return [...options, ...lines.slice(world)].join('\n');
}
