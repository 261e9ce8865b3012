// The shading instances a provider handed out for one frame, found again by what their parameter
// blocks are made of: primitives whose attribute states differ only in what shading does not read
// (a Color, a transform, each in its own AttributeBegin) share one instance, so one packed block
// and one pipeline entry. The key is the composition (light set, the surface, displacement and
// atmosphere shaders with their RIB values), then what its compiled pipeline reads of the state:
// its attribute() queries and the "shader" space of the instances with points, vectors, normals or
// a shader-space matrix. A composition that warned is also keyed by the requests' source positions,
// so each request still reports its own problems. Blocks holding the object → camera matrix are
// per primitive and not kept.
import type { ParamLayout } from '../../layout/param-layout.ts';
import type { Attributes, ShaderRef } from '../../rib/scene.ts';
import { attributeValue } from './info-values.ts';
import type { ShadingInstance, ShadingRequest } from './shading-kernel.ts';

/** What a primitive's block was made from, beyond the composition. */
export interface StateReads {
  /** attribute() names the pipeline queries. */
  attributes: readonly string[];
  /** The shader instances whose "shader" space the block holds. */
  shaderSpaces: readonly StateShader[];
}

/** An instance whose shader and values come from the attribute state. */
type StateShader = 'surface' | 'displacement' | 'atmosphere';
const STATE_SHADERS: readonly StateShader[] = ['surface', 'displacement', 'atmosphere'];

export const NOTHING_READ: StateReads = { attributes: [], shaderSpaces: [] };

/** A provider's answer for one request, with what it depends on. */
export interface Shaded {
  instance: ShadingInstance;
  /** The block holds the primitive's object → camera matrix: it is the primitive's own. */
  objectDependent: boolean;
  reads: StateReads;
}

/** What a pipeline's blocks read of an attribute state (ParamLayout of the compiled pipeline). */
export function stateReads(params: ParamLayout): StateReads {
  const pointLike = new Set(['point', 'vector', 'normal']);
  return {
    attributes: (params.attributes ?? []).map((a) => a.name),
    shaderSpaces: STATE_SHADERS.filter((instance) =>
      params.spaceMatrices.some((m) => m.instance === instance && m.space === 'shader') ||
      params.entries.some((e) => e.instance === instance && pointLike.has(e.type))),
  };
}

interface Composition {
  reads: StateReads;
  /** Its first shading warned: instances are kept per request position too. */
  positioned: boolean;
  instances: Map<string, ShadingInstance>;
}

export class InstanceCache {
  /** Primitives of one state object ask again and again: found without building a key. */
  private readonly byState = new WeakMap<Attributes, Map<string, ShadingInstance>>();
  private readonly compositions = new Map<string, Composition>();
  private readonly refKeys = new WeakMap<ShaderRef, string>();

  /** The instance for `request`: a kept one, else `shade`'s (kept when it can be shared). */
  instance(request: ShadingRequest, shade: (request: ShadingRequest) => Shaded): ShadingInstance {
    const lights = `${request.layout.maxVertices}:${request.lights.map((l) => l.id).join(',')}:${(request.primitiveVariables ?? []).join(',')}`;
    const perState = this.byState.get(request.attributes);
    const same = perState?.get(lights);
    if (same) return same;
    const key = this.compositionKey(request.attributes, lights);
    const composition = this.compositions.get(key);
    let instance = composition?.instances.get(valuesKey(composition, request.attributes));
    if (!instance) {
      let warned = false;
      const shaded = shade({ ...request, warn: (message) => { warned = true; request.warn(message); } });
      instance = shaded.instance;
      if (shaded.objectDependent) return instance;
      const kept = composition ?? { reads: shaded.reads, positioned: warned, instances: new Map() };
      this.compositions.set(key, kept);
      kept.instances.set(valuesKey(kept, request.attributes), instance);
    }
    if (perState) perState.set(lights, instance);
    else this.byState.set(request.attributes, new Map([[lights, instance]]));
    return instance;
  }

  private compositionKey(attributes: Attributes, lights: string): string {
    return `${lights}\u0001${STATE_SHADERS.map((role) => this.refKey(attributes[role])).join('\u0001')}`;
  }

  /** A shader request's name and RIB values (its shader space and position are keyed where read). */
  private refKey(ref: ShaderRef | null): string {
    if (!ref) return '';
    let key = this.refKeys.get(ref);
    if (key === undefined) this.refKeys.set(ref, (key = JSON.stringify([ref.name, ref.params])));
    return key;
  }
}

/** What, of a state, the composition's blocks differ by. */
function valuesKey(composition: Composition, attributes: Attributes): string {
  const { reads, positioned } = composition;
  if (reads.attributes.length === 0 && reads.shaderSpaces.length === 0 && !positioned) return '';
  return JSON.stringify([
    reads.attributes.map((name) => attributeValue(attributes, name) ?? null),
    reads.shaderSpaces.map((role) => attributes[role]?.shaderToWorld ?? null),
    positioned ? STATE_SHADERS.map((role) => attributes[role]?.source ?? null) : [],
  ]);
}
