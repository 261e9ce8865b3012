// The picture as an image viewer shows it (as RenderMan's `it` does): fit to the window or 1:1, 2:1,
// 4:1 pixels without smoothing (Alt+wheel steps through them toward the cursor); exposure (stops) and gamma applied live to the float pixels; the
// value and depth of the pixel under the cursor; a histogram of the displayed channels; and
// snapshots kept for comparison, shown over the current picture up to a wipe line.
import { expose, type FloatImage, type Frame, type PixelRect } from '../index.ts';
import { h } from './dom.ts';
import { displayExposure, showPicture, showPictureRegion, type DisplayAdjustment } from './picture-canvas.ts';

interface Shown {
  image: FloatImage;
  frame: Frame;
  size: [number, number];
}

type Zoom = 'fit' | 1 | 2 | 4;

const ZOOMS: Zoom[] = ['fit', 1, 2, 4];

const HISTOGRAM_BINS = 64;

export class ImageViewer {
  readonly adjust: DisplayAdjustment = { stops: 0, gamma: null };
  private zoom: Zoom = 'fit';
  private current: Shown | undefined;
  private readonly snapshots: (Shown & { label: string })[] = [];
  private compared: number | undefined;
  private wipe = 0.5;
  private readonly readout = h('output', { id: 'pixel-readout', 'aria-live': 'off' });
  private readonly histogram = h('canvas', { id: 'histogram', width: HISTOGRAM_BINS * 4, height: 64, 'aria-label': 'Histogram of the displayed red, green and blue values' });
  private readonly snapshotList = h('select', { id: 'compare-snapshot', 'aria-label': 'Snapshot to compare with' });
  private readonly zoomSelect = h('select', { id: 'picture-zoom', 'aria-label': 'Picture size' },
    h('option', { value: 'fit' }, 'Fit to window'), h('option', { value: '1' }, '1:1'), h('option', { value: '2' }, '2:1'), h('option', { value: '4' }, '4:1'));
  private readonly gammaField = h('input', { type: 'number', id: 'display-gamma', min: '0.1', max: '5', step: '0.1', placeholder: 'scene', 'aria-label': 'Display gamma' });

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly stack: HTMLElement,
    private readonly snapshotCanvas: HTMLCanvasElement,
    panel: HTMLElement,
  ) {
    this.buildPanel(panel);
    canvas.addEventListener('pointermove', (event) => this.showReadout(event));
    canvas.addEventListener('pointerleave', () => (this.readout.textContent = ''));
    canvas.addEventListener('wheel', (event) => {
      if (!event.altKey) return;
      event.preventDefault();
      const next = ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, ZOOMS.indexOf(this.zoom) + (event.deltaY < 0 ? 1 : -1)))]!;
      this.zoomAt(next, event.clientX, event.clientY);
    }, { passive: false });
  }

  /** A finished render: shown with the display adjustment, and kept for the readout and histogram. */
  show(image: FloatImage, frame: Frame, size: [number, number]): void {
    this.current = { image, frame, size };
    this.redraw();
  }

  /** A region of a render in progress. */
  showRegion(image: FloatImage, frame: Frame, rect: PixelRect): void {
    showPictureRegion(this.canvas, image, frame, rect, this.adjust);
  }

  /** A new scene: its pictures are not comparable with the last one's snapshots. */
  reset(): void {
    this.current = undefined;
    this.snapshots.length = 0;
    this.compared = undefined;
    this.refreshSnapshots();
  }

  private redraw(): void {
    const shown = this.current;
    if (!shown) return;
    showPicture(this.canvas, shown.image, shown.frame, shown.size, this.adjust);
    this.drawHistogram(shown);
    this.drawSnapshot();
    this.applyZoom();
  }

  private buildPanel(panel: HTMLElement): void {
    const zoom = this.zoomSelect;
    zoom.addEventListener('change', () => {
      this.zoom = zoom.value === 'fit' ? 'fit' : (Number(zoom.value) as 1 | 2 | 4);
      this.applyZoom();
    });
    const stops = h('input', { type: 'range', id: 'display-exposure', min: '-6', max: '6', step: '0.25', value: '0', 'aria-label': 'Display exposure in stops' });
    const stopsShown = h('output', {}, '0 stops');
    stops.addEventListener('input', () => {
      this.adjust.stops = Number(stops.value);
      stopsShown.textContent = `${this.adjust.stops > 0 ? '+' : ''}${this.adjust.stops} stops`;
      this.redraw();
    });
    this.gammaField.addEventListener('change', () => {
      const gamma = Number(this.gammaField.value);
      this.adjust.gamma = this.gammaField.value && gamma > 0 ? gamma : null;
      this.redraw();
    });
    const take = h('button', { type: 'button', id: 'take-snapshot' }, 'Snapshot');
    take.addEventListener('click', () => this.takeSnapshot());
    this.snapshotList.addEventListener('change', () => {
      this.compared = this.snapshotList.value === '' ? undefined : Number(this.snapshotList.value);
      this.drawSnapshot();
    });
    const wipe = h('input', { type: 'range', id: 'snapshot-wipe', min: '0', max: '100', step: '1', value: '50', 'aria-label': 'Wipe position' });
    wipe.addEventListener('input', () => {
      this.wipe = Number(wipe.value) / 100;
      this.placeWipe();
    });
    const row = (label: string, ...controls: HTMLElement[]): HTMLElement => h('label', { class: 'param' }, h('span', {}, label), ...controls);
    panel.replaceChildren(
      row('Size', zoom), row('Exposure', stops, stopsShown), row('Gamma', this.gammaField),
      h('p', { class: 'note' }, 'Exposure and gamma change the display only; saved files follow the scene.'),
      this.histogram, h('p', {}, this.readout),
      row('Compare', this.snapshotList, take), row('Wipe', wipe),
    );
    this.refreshSnapshots();
  }

  private applyZoom(): void {
    const width = this.current?.size[0] ?? this.canvas.width;
    this.stack.style.width = this.zoom === 'fit' ? '' : `${width * this.zoom}px`;
    this.stack.classList.toggle('pixels', this.zoom !== 'fit');
  }

  /** Alt+wheel: a new picture size, scrolled so that the point under the cursor stays under it. */
  private zoomAt(zoom: Zoom, clientX: number, clientY: number): void {
    if (zoom === this.zoom) return;
    const before = this.canvas.getBoundingClientRect();
    const fx = (clientX - before.left) / before.width;
    const fy = (clientY - before.top) / before.height;
    this.zoom = zoom;
    this.zoomSelect.value = String(zoom);
    this.applyZoom();
    const after = this.canvas.getBoundingClientRect();
    // The viewport scrolls what it can; the page scrolls the rest.
    const scroller = this.stack.closest('#viewport') ?? document.scrollingElement!;
    const dx = after.left + fx * after.width - clientX;
    const dy = after.top + fy * after.height - clientY;
    const [left, top] = [scroller.scrollLeft, scroller.scrollTop];
    scroller.scrollBy(dx, dy);
    window.scrollBy(dx - (scroller.scrollLeft - left), dy - (scroller.scrollTop - top));
  }

  private takeSnapshot(): void {
    const shown = this.current;
    if (!shown) return;
    const label = `Snapshot ${this.snapshots.length + 1} (${new Date().toLocaleTimeString()})`;
    this.snapshots.push({ ...shown, image: { ...shown.image, rgba: shown.image.rgba.slice(), depth: shown.image.depth.slice() }, label });
    this.compared = this.snapshots.length - 1;
    this.refreshSnapshots();
    this.drawSnapshot();
  }

  private refreshSnapshots(): void {
    this.snapshotList.replaceChildren(h('option', { value: '' }, 'Nothing'), ...this.snapshots.map((s, k) => h('option', { value: String(k) }, s.label)));
    this.snapshotList.value = this.compared === undefined ? '' : String(this.compared);
    if (this.compared === undefined) this.snapshotCanvas.hidden = true;
  }

  private drawSnapshot(): void {
    const snapshot = this.compared === undefined ? undefined : this.snapshots[this.compared];
    this.snapshotCanvas.hidden = !snapshot;
    if (!snapshot) return;
    showPicture(this.snapshotCanvas, snapshot.image, snapshot.frame, snapshot.size, this.adjust);
    this.placeWipe();
  }

  /** The snapshot shows left of the wipe line, the current picture right of it. */
  private placeWipe(): void {
    this.snapshotCanvas.style.clipPath = `inset(0 ${((1 - this.wipe) * 100).toFixed(2)}% 0 0)`;
  }

  private showReadout(event: PointerEvent): void {
    const shown = this.current;
    if (!shown) return;
    const rect = this.canvas.getBoundingClientRect();
    const x = Math.floor(((event.clientX - rect.left) / rect.width) * shown.image.width);
    const y = Math.floor(((event.clientY - rect.top) / rect.height) * shown.image.height);
    if (x < 0 || y < 0 || x >= shown.image.width || y >= shown.image.height) return;
    const k = y * shown.image.width + x;
    const [r, g, b, a] = Array.from(shown.image.rgba.subarray(k * 4, k * 4 + 4), (v) => v.toFixed(4));
    const z = shown.image.depth[k]!;
    this.readout.textContent = `(${x}, ${y})  r ${r}  g ${g}  b ${b}  a ${a}  z ${Number.isFinite(z) ? z.toPrecision(5) : '∞'}`;
    this.readout.dataset.x = String(x);
    this.readout.dataset.y = String(y);
  }

  /** Counts of the displayed r, g and b values (after exposure, straight colour) in HISTOGRAM_BINS bins
   * over [0, 1], the last bin holding what is brighter. */
  private drawHistogram(shown: Shown): void {
    const counts = [0, 1, 2].map(() => new Uint32Array(HISTOGRAM_BINS));
    const exposure = displayExposure(shown.frame, this.adjust);
    const { rgba } = shown.image;
    for (let i = 0; i < rgba.length; i += 4) {
      const alpha = rgba[i + 3]!;
      if (alpha <= 0) continue;
      for (let c = 0; c < 3; c++) {
        const v = expose(rgba[i + c]! / alpha, exposure);
        counts[c]![Math.min(HISTOGRAM_BINS - 1, Math.max(0, Math.floor(v * HISTOGRAM_BINS)))]!++;
      }
    }
    this.histogram.dataset.counts = JSON.stringify(counts.map((c) => Array.from(c)));
    const context = this.histogram.getContext('2d');
    if (!context) return;
    const { width, height } = this.histogram;
    context.clearRect(0, 0, width, height);
    const peak = Math.max(1, ...counts.flatMap((c) => Array.from(c)));
    context.globalCompositeOperation = 'lighter';
    ['#ff3b30', '#34c759', '#0a84ff'].forEach((colour, c) => {
      context.fillStyle = colour;
      counts[c]!.forEach((n, bin) => {
        // Square-root scale, so that small counts stay visible beside a large background bin.
        const bar = Math.sqrt(n / peak) * height;
        context.fillRect((bin * width) / HISTOGRAM_BINS, height - bar, width / HISTOGRAM_BINS, bar);
      });
    });
    context.globalCompositeOperation = 'source-over';
  }
}
