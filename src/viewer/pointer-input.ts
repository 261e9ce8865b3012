// Mouse, wheel and touch on the picture, through pointer events: drag orbits (shift, right or
// middle button pans), the wheel and a two-finger pinch zoom, two fingers moving together pan, and
// a press released without moving is a click (picks the object under it).
import type { OrbitCamera } from './orbit-camera.ts';

export interface PointerCallbacks {
  /** The camera moved; the page renders a preview and refines later. */
  moved(): void;
  /** A click at canvas pixel (x, y) of the full-resolution picture. */
  clicked(x: number, y: number): void;
}

const CLICK_SLOP = 4;

export function attachPointerInput(canvas: HTMLCanvasElement, camera: () => OrbitCamera | undefined, on: PointerCallbacks): void {
  const pointers = new Map<number, { x: number; y: number }>();
  let travelled = 0;
  let pinch: { distance: number; x: number; y: number } | undefined;

  const twoFinger = (): { distance: number; x: number; y: number } | undefined => {
    const [a, b] = [...pointers.values()];
    if (!a || !b) return undefined;
    return { distance: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  };

  canvas.addEventListener('contextmenu', (event) => event.preventDefault());
  canvas.addEventListener('pointerdown', (event) => {
    canvas.setPointerCapture?.(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 1) travelled = 0;
    pinch = twoFinger();
  });
  canvas.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    const cam = camera();
    if (!last || !cam) return;
    const dx = event.clientX - last.x;
    const dy = event.clientY - last.y;
    last.x = event.clientX;
    last.y = event.clientY;
    travelled += Math.abs(dx) + Math.abs(dy);
    const height = canvas.getBoundingClientRect().height;
    if (pointers.size >= 2) {
      const now = twoFinger();
      if (now && pinch) {
        cam.zoom(Math.log(now.distance / Math.max(pinch.distance, 1)) / Math.log(1 / 0.9));
        cam.pan(now.x - pinch.x, now.y - pinch.y, height);
      }
      pinch = now;
    } else if (travelled > CLICK_SLOP) {
      if (event.shiftKey || (event.buttons & 6) !== 0) cam.pan(dx, dy, height);
      else cam.orbit(dx, dy, height);
    } else return;
    on.moved();
  });
  const release = (event: PointerEvent): void => {
    const wasClick = pointers.size === 1 && travelled <= CLICK_SLOP && event.type === 'pointerup' && event.button === 0;
    pointers.delete(event.pointerId);
    pinch = twoFinger();
    if (wasClick) {
      const rect = canvas.getBoundingClientRect();
      const x = Math.floor(((event.clientX - rect.left) / rect.width) * canvas.width);
      const y = Math.floor(((event.clientY - rect.top) / rect.height) * canvas.height);
      on.clicked(x, y);
    }
  };
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', release);
  canvas.addEventListener('wheel', (event) => {
    const cam = camera();
    // Alt+wheel belongs to the image viewer (picture size, toward the cursor).
    if (!cam || event.altKey) return;
    event.preventDefault();
    cam.zoom(-event.deltaY / 100);
    on.moved();
  }, { passive: false });
}
