// Targeted edits of a prepared frame (PreparedRenderOptions.edits) on lavapipe: a material edit and
// a light edit repack only their parameter blocks and shade only the grids that use them, then sample
// only the pixels those grids reach (the rest is the last picture); a colour edit (or one of a
// displacing shader) rewrites what it changed and dices again only the regions holding it; each
// gives the picture a from-scratch render of the edited scene gives. An edit the description cannot express
// (geometry) takes the whole-frame path with the reason, and so does a frame that kept no grids.
import { describe, expect, it } from 'vitest';
import { compareImages } from '../../src/image/compare.ts';
import { quantizeImage } from '../../src/image/quantize.ts';
import { prepareFrame, type RenderedFrame } from '../../src/reyes/render-frame.ts';
import type { Frame, Parameter } from '../../src/rib/scene.ts';
import { useGpuRuntime } from '../gpu/gpu-fixture.ts';
import { frameFromText, render } from './render-helpers.ts';

const MiB = 1024 * 1024;

// Light 2 lights the left sphere only (Illuminate), so editing it reaches the left sphere's grids.
const SCENE = `Format 64 48 1
PixelSamples 2 2
Projection "perspective" "fov" 40
Translate 0 0 6
WorldBegin
LightSource "ambientlight" 1 "intensity" [0.15]
LightSource "pointlight" 2 "from" [-3 1 -2] "intensity" [6]
LightSource "distantlight" 3 "from" [1 1 -1] "to" [0 0 0] "intensity" [0.8]
AttributeBegin
Translate -1.1 0 0
Color [0.9 0.3 0.2]
Surface "plastic"
Sphere 1 -1 1 360
AttributeEnd
AttributeBegin
Illuminate 2 0
Translate 1.1 0 0
Color [0.3 0.5 0.9]
Surface "plastic" "Kd" [0.6]
Sphere 1 -1 1 360
AttributeEnd
WorldEnd`;

// Targeted or not, a re-render computes what a from-scratch render does: the pictures are compared
// for equality, not within 1/255.
function picture(frame: Frame, rendered: RenderedFrame) {
  return quantizeImage(rendered.image, frame.options.exposure, frame.options.quantize.rgba);
}

function withValue(params: readonly Parameter[], name: string, values: number[]): Parameter[] {
  return [...params.filter((p) => p.name !== name), { name, storage: 'uniform', type: 'float', arrayLength: null, values, inferred: false } as Parameter];
}

describe('targeted edits of a prepared frame', () => {
  const gpu = useGpuRuntime();

  async function scratch(frame: Frame) {
    return picture(frame, (await render(gpu(), frame, {})).rendered);
  }

  it('a material edit shades only its object\'s grids; a light edit only the grids it lights', async () => {
    const frame = await frameFromText(SCENE);
    const prepared = await prepareFrame(gpu(), frame, { primitiveIds: true });
    try {
      expect(prepared.retained).toBe(true);
      const grids = prepared.first.stats.grids;
      expect(prepared.first.stats.gridsShaded).toBe(grids);
      const ids = prepared.first.primitiveIds!;
      const left = frame.primitives[0]!.attributes;
      left.surface = { ...left.surface!, params: withValue(left.surface!.params, 'Ks', [1.5]) };
      const material = await prepared.render(frame, { edits: [{ kind: 'shader', primitives: [0] }], primitiveIds: true });
      expect(material.stats.reuse).toBe('targeted');
      expect(material.stats.untargeted).toBeUndefined();
      expect(material.stats.gridsDiced).toBe(0);
      expect(material.stats.gridsShaded).toBeGreaterThan(0);
      expect(material.stats.gridsShaded).toBeLessThan(grids);
      expect(material.stats.stageMs.convert).toBeLessThan(prepared.first.stats.stageMs.convert + 50);
      expect(material.primitiveIds).toEqual(ids);
      // Only the pixels the left sphere's grids reach (with the filter's) are sampled again.
      expect(material.stats.resampledPixels).toBeGreaterThan(0);
      expect(material.stats.resampledPixels).toBeLessThan(64 * 48 * 0.75);
      expect(compareImages(picture(frame, material), await scratch(frame)).max).toBe(0);
      expect(compareImages(picture(frame, material), picture(frame, prepared.first)).max).toBeGreaterThan(10);

      const light = frame.lights[1]!;
      light.params = withValue(light.params, 'intensity', [20]);
      const lit = await prepared.render(frame, { edits: [{ kind: 'light', light: 1 }] });
      expect(lit.stats.reuse).toBe('targeted');
      expect(lit.stats.gridsShaded).toBe(material.stats.gridsShaded);
      expect(compareImages(picture(frame, lit), await scratch(frame)).max).toBe(0);
      // The whole-frame path renders the same picture from the same state.
      const whole = await prepared.render(frame);
      expect(whole.stats.reuse).toBe('reused');
      expect(whole.stats.gridsShaded).toBe(grids);
      expect(compareImages(picture(frame, lit), picture(frame, whole)).max).toBe(0);
      // An edit that changes nothing shades nothing.
      const none = await prepared.render(frame, { edits: [{ kind: 'light', light: 2 }] });
      expect([none.stats.reuse, none.stats.gridsShaded, none.stats.resampledPixels, none.stats.samplingRegions]).toEqual(['targeted', 0, 0, 0]);
      expect(compareImages(picture(frame, none), picture(frame, whole)).max).toBe(0);
    } finally {
      prepared.dispose();
    }
  });

  it('in buckets, each kept bucket samples only its part of the edited pixels', async () => {
    const frame = await frameFromText(SCENE);
    const prepared = await prepareFrame(gpu(), frame, { bucketSize: 16, primitiveIds: true });
    try {
      expect(prepared.retained).toBe(true);
      const right = frame.primitives[1]!.attributes;
      right.surface = { ...right.surface!, params: withValue(right.surface!.params, 'Ks', [1.2]) };
      const edited = await prepared.render(frame, { edits: [{ kind: 'shader', primitives: [1] }], primitiveIds: true });
      expect(edited.stats.reuse).toBe('targeted');
      expect(edited.stats.samplingRegions).toBeLessThan(12);
      expect(edited.primitiveIds).toEqual(prepared.first.primitiveIds);
      expect(compareImages(picture(frame, edited), await scratch(frame)).max).toBe(0);
    } finally {
      prepared.dispose();
    }
  });

  it('a colour or opacity edit rewrites its records and dices again; the opaque path follows the opacity', async () => {
    const frame = await frameFromText(SCENE);
    const prepared = await prepareFrame(gpu(), frame, {});
    try {
      frame.primitives[1]!.attributes.color = [0.1, 0.9, 0.2];
      const green = await prepared.render(frame, { edits: [{ kind: 'color', primitives: [1] }] });
      expect(green.stats.reuse).toBe('targeted, rediced');
      expect(green.stats.boundSplitIterations).toBe(0);
      expect(compareImages(picture(frame, green), await scratch(frame)).max).toBe(0);
      frame.primitives[1]!.attributes.opacity = [0.5, 0.5, 0.5];
      const seeThrough = await prepared.render(frame, { edits: [{ kind: 'color', primitives: [1] }] });
      expect(seeThrough.stats.reuse).toBe('targeted, rediced');
      expect(seeThrough.stats.opaqueFastPath).toBe(false);
      expect(compareImages(picture(frame, seeThrough), await scratch(frame)).max).toBe(0);
    } finally {
      prepared.dispose();
    }
  });

  it('with displacement, an edit of the plain object leaves the displaced grids as they were; one of the displaced object dices its regions again', async () => {
    const frame = await frameFromText(SCENE.replace('Surface "plastic"\n', 'Surface "plastic"\nAttribute "displacementbound" "sphere" [0.1]\nDisplacement "dented" "Km" [0.3]\n'));
    const prepared = await prepareFrame(gpu(), frame, {});
    try {
      const grids = prepared.first.stats.grids;
      const right = frame.primitives[1]!.attributes;
      right.surface = { ...right.surface!, params: withValue(right.surface!.params, 'Kd', [0.9]) };
      const plain = await prepared.render(frame, { edits: [{ kind: 'shader', primitives: [1] }] });
      expect([plain.stats.reuse, plain.stats.gridsDiced]).toEqual(['targeted', 0]);
      expect(plain.stats.gridsShaded).toBeLessThan(grids);
      expect(compareImages(picture(frame, plain), await scratch(frame)).max).toBe(0);
      const left = frame.primitives[0]!.attributes;
      left.displacement = { ...left.displacement!, params: withValue(left.displacement!.params, 'Km', [0.5]) };
      const dented = await prepared.render(frame, { edits: [{ kind: 'shader', primitives: [0] }] });
      expect(dented.stats.reuse).toBe('targeted, rediced');
      expect(dented.stats.gridsDiced).toBeGreaterThan(0);
      expect(compareImages(picture(frame, dented), await scratch(frame)).max).toBe(0);
    } finally {
      prepared.dispose();
    }
  });

  it('an edit of one of two objects that share their shading content changes that object alone', async () => {
    // Both spheres plastic with the same values and lights: one shared parameter block (shading/instance-cache.ts).
    const frame = await frameFromText(SCENE.replace('Illuminate 2 0\n', '').replace('Surface "plastic" "Kd" [0.6]', 'Surface "plastic"'));
    const prepared = await prepareFrame(gpu(), frame, {});
    try {
      const right = frame.primitives[1]!.attributes;
      right.surface = { ...right.surface!, params: withValue(right.surface!.params, 'Kd', [0.1]) };
      const edited = await prepared.render(frame, { edits: [{ kind: 'shader', primitives: [1] }] });
      expect(edited.stats.untargeted).toBe('the parameter block of primitive 1 is shared with primitives the edit leaves alone');
      expect(compareImages(picture(frame, edited), await scratch(frame)).max).toBe(0);
    } finally {
      prepared.dispose();
    }
  });

  it('an edit the description cannot express takes the whole-frame path, saying why', async () => {
    const frame = await frameFromText(SCENE);
    const prepared = await prepareFrame(gpu(), frame, {});
    try {
      const sphere = frame.primitives[1]!;
      frame.primitives[1] = { ...sphere, geometry: { ...sphere.geometry, args: { ...sphere.geometry.args, radius: 0.8 } } };
      const moved = await prepared.render(frame, { edits: [{ kind: 'shader', primitives: [0] }] });
      expect(moved.stats.untargeted).toBe('the geometry of primitive 1 changed');
      expect(moved.stats.reuse).toBe('full: the geometry or shading rate changed');
      expect(compareImages(picture(frame, moved), await scratch(frame)).max).toBe(0);
    } finally {
      prepared.dispose();
    }
  });

  it('a frame that kept no grids (budget) renders edits from scratch', async () => {
    const frame = await frameFromText(SCENE);
    const prepared = await prepareFrame(gpu(), frame, { budgetBytes: 2 * MiB });
    try {
      expect(prepared.retained).toBe(false);
      const light = frame.lights[1]!;
      light.params = withValue(light.params, 'intensity', [20]);
      const again = await prepared.render(frame, { edits: [{ kind: 'light', light: 1 }] });
      expect(again.stats.reuse).toMatch(/^full: the grids take more than 50% of the budget/);
      expect(compareImages(picture(frame, again), await scratch(frame)).max).toBe(0);
    } finally {
      prepared.dispose();
    }
  });
});
