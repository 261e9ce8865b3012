// The built-in surface kernels (reyes-builtin-surfaces.wgsl): "constant" and the default surface.
// The RSL provider uses them for those surfaces and as its fallback; builtinShadingProvider hands
// out only these (any other surface becomes the default surface with a warning naming the shader),
// for comparisons and for renders without the compiler.
import type { GridLayout } from '../../layout/grid-layout.ts';
import { kernelSource } from '../../layout/kernel-sources.ts';
import type { ShadingInstance, ShadingKernel, ShadingKernelProvider } from './shading-kernel.ts';

const code = kernelSource('reyes-builtin-surfaces.wgsl');

function offsets(layout: GridLayout): Record<string, number> {
  const offset = (name: string): number => {
    const v = layout.variables.find((w) => w.name === name);
    if (!v) throw new Error(`grid layout has no variable ${name}`);
    return v.offset;
  };
  return {
    MAXV: layout.maxVertices,
    OFF_N: offset('N'), OFF_I: offset('I'), OFF_CS: offset('Cs'), OFF_OS: offset('Os'),
    OFF_CI: offset('Ci'), OFF_OI: offset('Oi'),
  };
}

export function builtinSurfaceKernel(name: 'defaultsurface' | 'constant', layout: GridLayout): ShadingKernel {
  return {
    key: `builtin:${name}:${layout.maxVertices}`,
    label: `builtin ${name}`,
    code,
    entryPoint: name === 'constant' ? 'constantSurface' : 'defaultSurface',
    constants: offsets(layout),
    bindings: [0, 1, 3],
    scratchBytesPerVertex: 0,
    keepsOpaque: true,
    writesGridInputs: [],
  };
}

const NO_PARAMS = new Float32Array(0);

/** The provider used while no compiled shaders are available. */
export const builtinShadingProvider: ShadingKernelProvider = ({ attributes, layout, warn }): ShadingInstance => {
  const surface = attributes.surface?.name;
  if (attributes.displacement) warn(`displacement shader "${attributes.displacement.name}" is not compiled; surfaces are not displaced`);
  if (attributes.atmosphere) warn(`atmosphere shader "${attributes.atmosphere.name}" is not compiled; it is ignored`);
  if (surface === 'constant') return { kernel: builtinSurfaceKernel('constant', layout), params: NO_PARAMS };
  if (surface && surface !== 'defaultsurface') {
    warn(`surface shader "${surface}" is not compiled; using the default surface`);
  }
  return { kernel: builtinSurfaceKernel('defaultsurface', layout), params: NO_PARAMS };
};
