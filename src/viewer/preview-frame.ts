// What a preview renders while the camera moves: the frame without depth of field and with the
// shutter closed at its opening time (moving things at their first position), so that a preview
// costs what a still frame costs. The full-quality render that follows has both.
import type { Frame } from '../index.ts';

export function previewFrame(frame: Frame): Frame {
  const [open] = frame.camera.shutter;
  return { ...frame, camera: { ...frame.camera, depthOfField: null, shutter: [open, open] } };
}
