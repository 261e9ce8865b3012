// Insight overlays on a canvas above the picture: the dicing regions, sampling regions and buckets
// the schedulers chose for the last render (RenderedFrame.regions; regions they split drawn dashed)
// and the outlines of the shaded micropolygon grids (RenderedFrame.gridOutlines). Each can be
// switched on and off; the overlay canvas is drawn at a multiple of the picture's size so lines
// stay thin when the picture is scaled up. The selected object is outlined from the primitive ids.
import type { PixelRect, RegionReport } from '../index.ts';
import { h } from './dom.ts';

export type OverlayKind = 'dicing' | 'sampling' | 'bucket' | 'grids';

export const OVERLAY_COLORS: Record<OverlayKind, string> = {
  dicing: '#ff3b30',
  sampling: '#34c759',
  bucket: '#ffcc00',
  grids: '#0a84ff',
};

const LABELS: Record<OverlayKind, string> = {
  dicing: 'Dicing regions',
  sampling: 'Sampling regions',
  bucket: 'Buckets',
  grids: 'Micropolygon grids',
};

/** What the last render reported, in its own raster space. */
export interface OverlayData {
  regions: RegionReport[];
  outlines: Float32Array | undefined;
  /** The rendered image's rectangle in its raster space (the crop window). */
  crop: PixelRect;
}

/** Which primitive covers each pixel of the last full render (-1 where none), and the selected one. */
export interface Selection {
  width: number;
  height: number;
  ids: Int32Array;
  index: number;
}

const SELECTION_COLOR = '#ff9f0a';

export class Overlays {
  readonly shown = new Set<OverlayKind>();
  private data: OverlayData | undefined;
  private selection: Selection | undefined;

  constructor(private readonly canvas: HTMLCanvasElement, private readonly changed: (kind: OverlayKind, on: boolean) => void) {}

  /** Checkboxes for each overlay. */
  buildControls(container: HTMLElement): void {
    container.replaceChildren(...(Object.keys(LABELS) as OverlayKind[]).map((kind) => {
      const box = h('input', { type: 'checkbox', 'data-overlay': kind });
      box.addEventListener('change', () => {
        if (box.checked) this.shown.add(kind);
        else this.shown.delete(kind);
        this.draw();
        this.changed(kind, box.checked);
      });
      return h('label', { class: 'overlay-toggle' }, box, h('span', { class: 'swatch', style: `background:${OVERLAY_COLORS[kind]}` }), ` ${LABELS[kind]}`);
    }));
  }

  get wantsOutlines(): boolean {
    return this.shown.has('grids');
  }

  /** Sizes the overlay for a picture of `size` pixels and clears it. */
  resize(size: [number, number]): void {
    const scale = Math.max(1, Math.min(4, Math.ceil(800 / Math.max(1, size[0]))));
    this.canvas.width = size[0] * scale;
    this.canvas.height = size[1] * scale;
    this.canvas.style.aspectRatio = `${size[0]} / ${size[1]}`;
    this.data = undefined;
    this.draw();
  }

  /** Outlines the selected object (or nothing). */
  select(selection: Selection | undefined): void {
    this.selection = selection;
    this.draw();
  }

  show(data: OverlayData): void {
    this.data = data;
    this.draw();
  }

  draw(): void {
    const context = this.canvas.getContext('2d');
    if (!context) return;
    context.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.drawSelection(context);
    const data = this.data;
    if (!data || this.shown.size === 0) return;
    const sx = this.canvas.width / Math.max(1, data.crop.x1 - data.crop.x0);
    const sy = this.canvas.height / Math.max(1, data.crop.y1 - data.crop.y0);
    const x = (v: number): number => (v - data.crop.x0) * sx;
    const y = (v: number): number => (v - data.crop.y0) * sy;
    if (this.shown.has('grids') && data.outlines) {
      context.strokeStyle = OVERLAY_COLORS.grids;
      context.globalAlpha = 0.7;
      context.lineWidth = 1;
      context.beginPath();
      for (let g = 0; g + 8 <= data.outlines.length; g += 8) {
        context.moveTo(x(data.outlines[g]!), y(data.outlines[g + 1]!));
        for (let k = 2; k < 8; k += 2) context.lineTo(x(data.outlines[g + k]!), y(data.outlines[g + k + 1]!));
        context.closePath();
      }
      context.stroke();
    }
    context.globalAlpha = 1;
    // Widest first, so that the thinner lines drawn after stay visible where they coincide
    // (a bucket's edge on a dicing region's); splits dashed.
    for (const kind of ['dicing', 'sampling', 'bucket'] as const) {
      if (!this.shown.has(kind)) continue;
      context.strokeStyle = OVERLAY_COLORS[kind];
      context.lineWidth = kind === 'dicing' ? 3 : 2;
      for (const region of data.regions) {
        if (region.kind !== kind) continue;
        context.setLineDash(region.split ? [6, 4] : []);
        const r = region.rect;
        const inset = context.lineWidth / 2;
        context.strokeRect(x(r.x0) + inset, y(r.y0) + inset, (r.x1 - r.x0) * sx - 2 * inset, (r.y1 - r.y0) * sy - 2 * inset);
      }
    }
    context.setLineDash([]);
  }

  /** The selected object's boundary: its pixels with a neighbour it does not cover. */
  private drawSelection(context: CanvasRenderingContext2D): void {
    const selection = this.selection;
    this.canvas.dataset.outlined = '0';
    if (!selection) return;
    const { width, height, ids, index } = selection;
    const sx = this.canvas.width / width;
    const sy = this.canvas.height / height;
    const mine = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < width && y < height && ids[y * width + x] === index;
    context.fillStyle = SELECTION_COLOR;
    let outlined = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (!mine(x, y) || (mine(x - 1, y) && mine(x + 1, y) && mine(x, y - 1) && mine(x, y + 1))) continue;
        context.fillRect(x * sx, y * sy, sx, sy);
        outlined++;
      }
    }
    this.canvas.dataset.outlined = String(outlined);
  }
}
