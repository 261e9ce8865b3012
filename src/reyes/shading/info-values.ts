// The values RSL's information functions read from the RIB scene: attribute() per primitive (the
// parameter block's "attribute:NAME" entries, packParameters) and option() per frame (compiled into
// the kernel, PipelineDescription.options). Names follow the RenderMan Interface 3.2 (section 15.9):
// "ShadingRate", "Sides", "Matte", "GeometricApproximation:TYPE" (e.g. motionfactor, when given),
// "displacementbound:sphere", "displacementbound:coordinatesystem", "identifier:name"; and
// "NAME:PARAM" for any Attribute "NAME" "PARAM" (Attribute "user" gives "user:..."). Options:
// "Format" (xres, yres, pixel aspect), "DeviceResolution" (the same three), "FrameAspectRatio",
// "CropWindow" (xmin, xmax, ymin, ymax), "PixelSamples", and "NAME:PARAM" for Option "NAME".
// "Clipping" is not answered: the camera's near/far planes do not reach the shading provider.
// Points in user attributes are returned as given (no space transform).
import type { Attributes, Options, Parameter } from '../../rib/scene.ts';

type InfoValue = number[] | string;

function fromParameter(p: Parameter | undefined): InfoValue | undefined {
  if (!p || p.values.length === 0) return undefined;
  const first = p.values[0];
  if (typeof first === 'string') return first;
  return (p.values as number[]).slice();
}

function userValue(user: Record<string, Parameter[]>, name: string): InfoValue | undefined {
  const colon = name.indexOf(':');
  if (colon <= 0) return undefined;
  return fromParameter(user[name.slice(0, colon)]?.find((p) => p.name === name.slice(colon + 1)));
}

/** The value attribute(name, ...) answers for a primitive with these attributes, or undefined. */
export function attributeValue(attributes: Attributes, name: string): InfoValue | undefined {
  switch (name) {
    case 'ShadingRate':
      return [attributes.shadingRate];
    case 'Sides':
      return [attributes.sides];
    case 'Matte':
      return [attributes.matte ? 1 : 0];
    case 'displacementbound:sphere':
      return [attributes.displacementBound.sphere];
    case 'displacementbound:coordinatesystem':
      return attributes.displacementBound.coordinateSystem;
  }
  if (name.startsWith('GeometricApproximation:')) {
    const key = name.slice('GeometricApproximation:'.length).toLowerCase();
    const found = Object.entries(attributes.geometricApproximation).find(([k]) => k.toLowerCase() === key);
    return found ? [found[1]] : undefined;
  }
  return userValue(attributes.user, name);
}

/** The value option(name, ...) answers for a frame with these options, or undefined. */
export function optionValue(options: Options, name: string): InfoValue | undefined {
  switch (name) {
    case 'Format':
    case 'DeviceResolution':
      return [options.xResolution, options.yResolution, options.pixelAspectRatio];
    case 'FrameAspectRatio':
      return [options.frameAspectRatio];
    case 'CropWindow':
      return [...options.cropWindow];
    case 'PixelSamples':
      return [...options.pixelSamples];
  }
  return userValue(options.user, name);
}

/** packParameters overrides "attribute:NAME" for every attribute() query of a compiled pipeline. */
export function attributeOverrides(queries: readonly { name: string }[] | undefined, attributes: Attributes): Record<string, InfoValue> {
  const out: Record<string, InfoValue> = {};
  for (const q of queries ?? []) {
    const value = attributeValue(attributes, q.name);
    if (value !== undefined) out[`attribute:${q.name}`] = value;
  }
  return out;
}

/** PipelineDescription.options for the option() names a pipeline asks for. */
export function optionValues(names: readonly string[], options: Options): Record<string, InfoValue> {
  const out: Record<string, InfoValue> = {};
  for (const name of names) {
    const value = optionValue(options, name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
