// The page's state and its renders: the loaded scene, the orbit camera, the shading edits and the
// render settings, turned into renderer calls. A full-quality render prepares the frame
// (prepareFrame keeps its diced grids), so light and material edits re-render with shading,
// sampling and filtering only, from the cached parsed frame and compiled kernels; camera moves
// render a preview and refine once the camera rests. Every full render also reports the primitive
// under each pixel (for selecting objects), its progress, and the regions and grids the overlays show.
// A new request (camera, edit, scene) cancels the render in flight, and so do Stop and Esc: the
// renderer stops at its next region (RenderOptions.signal).
import { checkSource, defaultGridVertices, type FloatImage, type Frame, frameCamera, type FrameStats, GpuDeviceLostError, type GpuRuntime, isCancelled, type PreparedFrame, prepareFrame, quantizeImage, type RenderedFrame, renderFrame, type RenderOptions, type ShaderDiagnostic as RslDiagnostic } from '../index.ts';
import { element, h, setStatus } from './dom.ts';
import { EditHistory } from './edit-history.ts';
import { GpuLock, GpuSession, LatestJobQueue } from './gpu-session.ts';
import { showStats } from './insight-panel.ts';
import { showStageGraph } from './stage-graph-view.ts';
import { buildLightsPanel } from './lights-panel.ts';
import { buildMaterialPanel, showKernelPasses } from './material-panel.ts';
import { showMessages, type Message } from './messages-panel.ts';
import { OrbitCamera } from './orbit-camera.ts';
import { Overlays } from './overlays.ts';
import { ImageViewer } from './image-viewer.ts';
import { attachPointerInput } from './pointer-input.ts';
import { buildSettingsPanel, DEFAULT_SETTINGS, type RenderSettings } from './render-settings.ts';
import { loaderCounters, type LoadedScene } from './scene-loader.ts';
import { exportRib } from './rib-export.ts';
import { cameraExtent, framingMove, sceneExtent, type CameraExtent } from './framing.ts';
import { copyPng, download, encodePicture, PICTURE_FORMATS, pictureFileName, type PictureFormat } from './picture-export.ts';
import { SceneEdits, type EditState } from './scene-edits.ts';
import { buildSceneOutline } from './scene-outline.ts';
import { previewFrame } from './preview-frame.ts';
import { ShaderEditor } from './shader-editor.ts';
import { attachShortcuts, fillHelp } from './shortcuts.ts';

export type Quality = 'preview' | 'full';

/** What the tests and the measurement script read (window.reyesViewer). */
export interface ViewerProbe {
  counters: { parses: number; compiles: number; renders: number; recoveries: number; cancelled: number };
  renders: { quality: Quality; ms: number; kind: string; gridsDiced: number; gridsShaded: number; reuse: string; resolution: [number, number]; samples: [number, number] }[];
  /** The last render's statistics. */
  stats: FrameStats | undefined;
  /** Fractions of the frame done that the progress bar showed during the last render. */
  progress: number[];
  loseDevice(): void;
  /** The primitive under full-resolution pixel (x, y), from the last full render's primitive ids; -1 where nothing. */
  pick(x: number, y: number): Promise<number>;
  /** Pixels of primitive `index` in the last full render (for tests of material edits). */
  idMask(index: number): Promise<number[]>;
  /** The last full-quality picture with the scene's Exposure and Quantize, associated alpha: the
   * 8-bit RGBA a "file" Display writes (the golden-image tests compare it). */
  quantizedPicture(): { width: number; height: number; rgba: number[] } | undefined;
}

/** Which primitive covers each pixel of the last full-quality render. */
interface IdImage {
  width: number;
  height: number;
  ids: Int32Array;
}

/** Kinds of request that only change shading (lights, materials, overlays): a prepared frame serves them. */
const SHADING_ONLY = new Set(['light change', 'material change', 'shader edit', 'grid outlines']);

const REFINE_DELAY_MS = 250;

export class ViewerApp {
  readonly session = new GpuSession((message) => this.deviceLost(message));
  private readonly lock = new GpuLock();
  private readonly queue = new LatestJobQueue();
  private loaded: LoadedScene | undefined;
  private edits: SceneEdits | undefined;
  private history: EditHistory<EditState> | undefined;
  /** The last full-quality picture, for saving. */
  private lastPicture: FloatImage | undefined;
  private camera: OrbitCamera | undefined;
  private readonly settings: RenderSettings = { ...DEFAULT_SETTINGS };
  private baseShadingRates: number[] = [];
  private selected: number | undefined;
  private idImage: IdImage | undefined;
  private idWaiters: ((ids: IdImage | undefined) => void)[] = [];
  private prepared: { frame: PreparedFrame; runtime: GpuRuntime } | undefined;
  private progressShown: number[] = [];
  private loadMessages: Message[] = [];
  private renderMessages: Message[] = [];
  /** Device losses and recoveries: kept until another scene opens. */
  private gpuMessages: Message[] = [];
  private refineTimer: ReturnType<typeof setTimeout> | undefined;
  /** Cancels the render in flight. */
  private inFlight: AbortController | undefined;
  /** The canvas shows a render of the current scene. */
  private pictureShown = false;
  readonly probe: ViewerProbe;

  private readonly canvas = element<HTMLCanvasElement>('picture');
  private readonly viewer = new ImageViewer(this.canvas, element('picture-stack'), element<HTMLCanvasElement>('snapshot'), element('picture-controls'));
  private readonly status = element<HTMLElement>('render-status');
  private readonly progress = element<HTMLProgressElement>('render-progress');
  /** The estimated time left of the render in flight, beside the progress bar. */
  private readonly timeLeft = h('span', { id: 'render-time-left', 'aria-live': 'off' });
  private readonly stopButton = element<HTMLButtonElement>('stop-render');
  private readonly saveButton = element<HTMLButtonElement>('save-picture');
  private readonly saveFormat = element<HTMLSelectElement>('save-format');
  private readonly copyButton = element<HTMLButtonElement>('copy-picture');
  private readonly exportButton = element<HTMLButtonElement>('export-rib');
  private readonly undoButton = element<HTMLButtonElement>('undo-edit');
  private readonly redoButton = element<HTMLButtonElement>('redo-edit');
  private readonly editor = new ShaderEditor(element('shader-editor'), {
    checked: (file, diagnostics) => this.shaderChecked(file, diagnostics),
    clean: (name, file, source) => this.shaderEdited(name, file, source),
  });
  private readonly overlays = new Overlays(element<HTMLCanvasElement>('overlay'), (kind, on) => {
    if (kind === 'grids' && on) this.request('full', 'grid outlines');
  });

  constructor() {
    const renders: ViewerProbe['renders'] = [];
    this.probe = {
      counters: { parses: 0, compiles: 0, renders: 0, recoveries: 0, cancelled: 0 },
      renders,
      stats: undefined,
      progress: [],
      loseDevice: () => this.session.loseDevice(),
      pick: async (x, y) => this.pickAt(x, y),
      idMask: async (index) => {
        const ids = await this.currentIds();
        const out: number[] = [];
        ids?.ids.forEach((id, k) => id === index && out.push(k));
        return out;
      },
      quantizedPicture: () => {
        const picture = this.lastPicture;
        const options = this.loaded?.frame?.options;
        if (!picture || !options) return undefined;
        const { width, height, rgba } = quantizeImage(picture, options.exposure, options.quantize.rgba);
        return { width, height, rgba: Array.from(rgba) };
      },
    };
    attachPointerInput(this.canvas, () => this.camera, {
      moved: () => this.cameraMoved(),
      clicked: (x, y) => void this.select(x, y),
    });
    element<HTMLButtonElement>('reset-camera').addEventListener('click', () => this.resetCamera());
    this.saveFormat.append(...PICTURE_FORMATS.map((f) => new Option(f.label, f.format)));
    this.saveButton.addEventListener('click', () => this.savePicture());
    this.copyButton.addEventListener('click', () => void this.copyPicture());
    this.exportButton.addEventListener('click', () => this.exportScene());
    this.undoButton.addEventListener('click', () => this.undo());
    this.redoButton.addEventListener('click', () => this.redo());
    const help = element<HTMLDialogElement>('help');
    fillHelp(help);
    const toggleHelp = (): void => (help.open ? help.close() : help.showModal());
    element<HTMLButtonElement>('show-help').addEventListener('click', toggleHelp);
    attachShortcuts({
      frameSelected: () => void this.frameObject(this.selected), frameAll: () => void this.frameObject(undefined),
      save: () => this.savePicture(), copy: () => void this.copyPicture(), resetCamera: () => this.resetCamera(), undo: () => this.undo(), redo: () => this.redo(),
      stop: () => this.stop(), help: toggleHelp,
    });
    buildSettingsPanel(element<HTMLFormElement>('settings'), this.settings, () => {
      this.idImage = undefined;
      this.request('full', 'settings');
    });
    this.overlays.buildControls(element('overlay-controls'));
    this.progress.after(this.timeLeft);
    this.stopButton.addEventListener('click', () => this.stop());
    this.setRenderState('idle', 'Choose a scene, open .rib files, or drop them here.');
  }

  /** Shows a newly parsed scene and renders it. */
  show(loaded: LoadedScene): void {
    this.loaded = loaded;
    this.pictureShown = false;
    this.probe.counters.parses = loaderCounters.parses;
    this.selected = undefined;
    this.idImage = undefined;
    this.lastPicture = undefined;
    this.viewer.reset();
    this.saveButton.disabled = true;
    this.copyButton.disabled = true;
    this.exportButton.disabled = true;
    this.renderMessages = [];
    this.gpuMessages = [];
    this.loadMessages = [...loaded.scene.errors, ...loaded.scene.warnings].map((d) => ({
      severity: d.severity, file: d.file, line: d.line, column: d.column, source: 'rib',
      text: d.request ? `${d.request}: ${d.message}` : d.message,
    }));
    const frame = loaded.frame;
    if (!frame) {
      this.loadMessages.push({ severity: 'error', file: loaded.name, text: 'the file has no frame to render (no WorldBegin … WorldEnd)', source: 'rib' });
      this.refreshMessages();
      this.setRenderState('error', `${loaded.name} has nothing to render; see Messages.`);
      return;
    }
    this.edits = new SceneEdits(frame, loaded.shaders, loaded.textures);
    this.exportButton.disabled = false;
    this.editor.close();
    this.history = new EditHistory(this.edits.snapshot());
    this.showHistory();
    // Opened shaders are checked up front so their errors show even before a primitive uses them.
    for (const { source, file } of loaded.shaders.values()) this.addCompileErrors(checkSource(source, file).diagnostics.list, false);
    this.camera = OrbitCamera.forFrame(frame);
    this.baseShadingRates = frame.primitives.map((p) => p.attributes.shadingRate);
    const full = this.fullSize(frame);
    this.canvas.width = full[0];
    this.canvas.height = full[1];
    this.canvas.style.aspectRatio = `${full[0]} / ${full[1]}`;
    this.overlays.resize(full);
    this.dropPrepared();
    element('scene-name').textContent = loaded.name;
    this.showLights();
    this.showMaterial();
    this.showOutline();
    this.overlays.select(undefined);
    this.refreshMessages();
    this.request('full', 'first picture');
  }

  private showOutline(): void {
    if (!this.loaded?.frame) return;
    buildSceneOutline(element('scene-outline'), this.loaded.frame, this.selected, (index) => this.selectPrimitive(index));
  }

  /** Selects object `index` (or nothing): its material in the panel, its outline in the picture. */
  private selectPrimitive(index: number | undefined): void {
    this.selected = index;
    this.showMaterial();
    this.showOutline();
    this.outlineSelection();
    if (index !== undefined) element('material').closest('details')?.setAttribute('open', '');
  }

  /** The selected object's outline, from the last full render's primitive ids (waiting for them if needed). */
  private outlineSelection(): void {
    const index = this.selected;
    if (index === undefined) return this.overlays.select(undefined);
    void this.currentIds().then((ids) => {
      if (ids && this.selected === index) this.overlays.select({ ...ids, index });
    });
  }

  private showLights(): void {
    if (!this.loaded?.frame || !this.edits) return;
    buildLightsPanel(element('lights'), this.loaded.frame, this.edits, this.maxVertices(), () => this.edited('light change'), (d) => this.addCompileErrors(d));
  }

  /** A panel changed the scene: one undo step, and a re-render. */
  private edited(kind: 'light change' | 'material change'): void {
    if (this.edits) this.history?.changed(this.edits.snapshot());
    this.showHistory();
    this.request('full', kind);
  }

  /** "Edit shader source": opens the shader the renders use (opened, edited or standard) in the editor. */
  private editShader(name: string): void {
    const source = this.edits?.source(name);
    if (!source) return;
    this.editor.open(name, source.file, source.source);
    element('shader-editor-panel').setAttribute('open', '');
  }

  /** The editor checked its source: its messages replace those the file had. */
  private shaderChecked(file: string, diagnostics: RslDiagnostic[]): void {
    this.loadMessages = this.loadMessages.filter((m) => !(m.source === 'rsl' && m.file === file));
    this.renderMessages = this.renderMessages.filter((m) => !(m.source === 'rsl' && m.file === file));
    this.addCompileErrors(diagnostics);
  }

  /** A source that compiles: the renders use it from now on (only the kernels that use it recompile). */
  private shaderEdited(name: string, file: string, source: string): void {
    if (!this.edits || this.edits.source(name)?.source === source) return;
    this.edits.setSource(name, file, source);
    // Its parameters may have changed: the panels show the new layout.
    this.showLights();
    this.showMaterial();
    this.request('full', 'shader edit');
  }

  private undo(): void {
    this.goTo(this.history?.undo());
  }

  private redo(): void {
    this.goTo(this.history?.redo());
  }

  private goTo(state: EditState | undefined): void {
    if (!state || !this.edits) return;
    this.edits.restore(state);
    this.showLights();
    this.showMaterial();
    this.showHistory();
    this.request('full', 'material change');
  }

  private showHistory(): void {
    this.undoButton.disabled = !this.history?.canUndo;
    this.redoButton.disabled = !this.history?.canRedo;
  }

  private resetCamera(): void {
    if (!this.camera) return;
    this.camera.reset();
    this.idImage = undefined;
    this.request('full', 'camera reset');
  }

  /** F and A: moves the camera so the object `index` (from the last full render's primitive ids and
   * depth) or, when undefined, every primitive (from their bounding boxes) fills about 70% of the view. */
  private async frameObject(index: number | undefined): Promise<void> {
    if (!this.loaded?.frame || !this.camera) return;
    let extent: CameraExtent | undefined;
    const edited = this.editedFrame();
    const camera = frameCamera(edited);
    if (index === undefined) {
      // Everything, in view or not: the primitives' bounding boxes.
      extent = sceneExtent(edited, edited.camera.worldToCamera);
    } else {
      const ids = await this.currentIds();
      const picture = this.lastPicture;
      if (!ids || !picture || picture.width !== ids.width || picture.height !== ids.height) return;
      extent = cameraExtent(camera, ids.width, ids.ids, picture.depth, (id) => id === index);
    }
    if (!extent) return;
    const [x, y, z] = framingMove(camera, extent);
    this.camera.translate(x, y, z);
    // What was framed is now straight ahead at its depth plus the move: orbits turn about it.
    this.camera.pivotAt(extent.depth + z);
    this.cameraMoved();
  }

  /** Ctrl+S and the Save button: the last full-quality picture in the chosen format. */
  private savePicture(): void {
    const picture = this.lastPicture;
    const frame = this.loaded?.frame;
    if (!picture || !frame) return;
    const format = this.saveFormat.value as PictureFormat;
    const name = pictureFileName(this.loaded!.name, format);
    download(encodePicture(picture, frame, format, name), name, PICTURE_FORMATS.find((f) => f.format === format)!.mime);
  }

  /** Ctrl+C and the Copy button: the same PNG the Save button writes, on the clipboard. */
  private async copyPicture(): Promise<void> {
    const picture = this.lastPicture;
    const frame = this.loaded?.frame;
    if (!picture || !frame) return;
    const name = pictureFileName(this.loaded!.name, 'png');
    try {
      await copyPng(encodePicture(picture, frame, 'png', name));
      this.copyButton.title = `Copied ${name} (${picture.width} × ${picture.height}) to the clipboard`;
    } catch (error) {
      this.loadMessages.push({ severity: 'error', file: this.loaded!.name, text: `could not copy the picture: ${(error as Error).message}`, source: 'render' });
      this.refreshMessages();
    }
  }

  /** The Export RIB button: the frame as the page renders it (camera, settings, edits), as RIB. */
  private exportScene(): void {
    if (!this.loaded?.frame || !this.camera) return;
    const base = this.loaded.name.replace(/\.rib(\.gz)?$/i, '') || 'scene';
    const { text, notExported } = exportRib(this.editedFrame(), this.loaded.name);
    for (const note of notExported) this.loadMessages.push({ severity: 'warning', file: `${base}-edited.rib`, text: `not exported: ${note}`, source: 'rib' });
    if (notExported.length) this.refreshMessages();
    download(new TextEncoder().encode(text), `${base}-edited.rib`, 'application/x-rib');
  }

  /** Reports a failure to load (fetch error, no .rib among the files). */
  loadFailed(name: string, message: string): void {
    this.loadMessages = [{ severity: 'error', file: name, text: message, source: 'rib' }];
    this.refreshMessages();
    this.setRenderState('error', `Could not open ${name}: ${message}`);
  }

  /** The renderer's grid size (its default), so panel layouts compile like the render's kernels. */
  private maxVertices(): number {
    return defaultGridVertices(this.session.current?.limits.maxComputeInvocationsPerWorkgroup ?? 256);
  }

  private showMaterial(): void {
    if (!this.loaded?.frame || !this.edits) return;
    buildMaterialPanel(element('material'), this.loaded.frame, this.selected, this.edits, this.maxVertices(),
      () => this.edited('material change'), (d) => this.addCompileErrors(d), (name) => this.editShader(name));
  }

  private fullSize(frame: Frame): [number, number] {
    const crop = frameCamera(frame).crop;
    return [crop.x1 - crop.x0, crop.y1 - crop.y0];
  }

  private cameraMoved(): void {
    this.idImage = undefined;
    this.overlays.select(undefined);
    this.dropPrepared();
    this.request('preview', 'camera move (preview)');
    clearTimeout(this.refineTimer);
    // The preview of this view in flight finishes first: on a slow device a refinement that
    // cancelled it would leave the picture of the old view until the full render is done.
    this.refineTimer = setTimeout(() => this.request('full', 'camera move (full)', { keepInFlight: true }), REFINE_DELAY_MS);
  }

  /** `keepInFlight`: the render in flight is of the same state (a preview this refines), so it is not stopped. */
  request(quality: Quality, kind: string, { keepInFlight = false } = {}): void {
    if (!this.loaded?.frame) return;
    this.setRenderState('rendering', quality === 'preview' ? 'Rendering a preview…' : 'Rendering…');
    this.showProgress(0);
    // The render in flight draws a state this request replaces: stop it at its next region.
    if (!keepInFlight) this.inFlight?.abort();
    if (quality === 'full' && this.settings.progressive && !SHADING_ONLY.has(kind)) {
      // Progressive: a fast pass shown first, then the full render unless something newer is waiting.
      this.queue.submit(() => this.lock.run(async () => {
        const cancelled = this.probe.counters.cancelled;
        await this.renderOnce('preview', `${kind} (fast pass)`, true);
        if (this.probe.counters.cancelled === cancelled && !this.queue.hasWaiting) await this.renderOnce('full', kind, true);
      }));
      return;
    }
    this.queue.submit(() => this.lock.run(() => this.renderOnce(quality, kind, true)));
  }

  /** Stop and Esc: cancels the render in flight and the refinement still to come. */
  private stop(): void {
    clearTimeout(this.refineTimer);
    if (!this.inFlight) return;
    this.queue.discardWaiting();
    this.inFlight.abort();
    this.setRenderState('stopped', this.pictureShown ? 'Stopped; the picture shows the last finished render.' : 'Stopped before the first picture.');
  }

  /** The frame as the page's edits have it: camera, filter and shading-rate overrides. */
  private editedFrame(): Frame {
    const frame = this.loaded!.frame!;
    frame.primitives.forEach((p, k) => (p.attributes.shadingRate = (this.baseShadingRates[k] ?? 1) * this.settings.shadingRateScale));
    const filter = this.settings.filter;
    const scale = this.settings.resolutionScale;
    const options = scale === 1 ? frame.options : {
      ...frame.options,
      xResolution: Math.max(1, Math.round(frame.options.xResolution * scale)),
      yResolution: Math.max(1, Math.round(frame.options.yResolution * scale)),
    };
    return {
      ...frame,
      camera: { ...frame.camera, worldToCamera: Array.from(this.camera!.worldToCamera()) },
      options: filter ? { ...options, pixelFilter: { name: filter.name, xWidth: filter.width, yWidth: filter.width } } : options,
    };
  }

  private baseOptions(frame: Frame, quality: Quality): RenderOptions {
    const options: RenderOptions = {};
    if (this.settings.budgetMiB !== null) options.budgetBytes = Math.floor(this.settings.budgetMiB * 1024 * 1024);
    if (this.settings.bucketSize !== null) options.bucketSize = this.settings.bucketSize;
    if (this.settings.samples !== null) options.samples = this.settings.samples;
    if (quality === 'preview') {
      const { xResolution, yResolution } = frame.options;
      const factor = Math.max(2, Math.ceil(Math.sqrt((xResolution * yResolution) / (160 * 120))));
      options.resolution = [Math.max(8, Math.round(xResolution / factor)), Math.max(6, Math.round(yResolution / factor))];
      options.samples = 1;
    }
    return options;
  }

  private async renderOnce(quality: Quality, kind: string, retryOnLoss: boolean): Promise<void> {
    const loaded = this.loaded;
    const edits = this.edits;
    if (!loaded?.frame || !edits || !this.camera) return;
    const started = performance.now();
    let rendered: RenderedFrame;
    let frame: Frame;
    this.progressShown = [];
    this.probe.progress = this.progressShown;
    const cancel = new AbortController();
    this.inFlight = cancel;
    try {
      const gpu = await this.session.get();
      if (this.prepared && this.prepared.runtime !== gpu) this.dropPrepared();
      frame = this.editedFrame();
      const options = this.baseOptions(frame, quality);
      options.shading = edits.provider.provide;
      options.onProgress = (done, total) => this.showProgress(done / Math.max(1, total), performance.now() - started);
      // An Imager shader changes the pixels after the last region: then only the finished picture shows.
      if (!loaded.frame.options.imager) {
        options.onPixels = (image, rect) => this.viewer.showRegion(image, loaded.frame!, rect);
      }
      options.signal = cancel.signal;
      if (quality === 'preview') {
        rendered = await renderFrame(gpu, previewFrame(frame), options);
      } else {
        options.primitiveIds = true;
        options.gridOutlines = this.overlays.wantsOutlines;
        rendered = await this.renderFull(gpu, frame, options, SHADING_ONLY.has(kind));
      }
      if (gpu.context.lostError) throw gpu.context.lostError;
    } catch (error) {
      if (isCancelled(error)) {
        // Stop said so already, or a newer request is waiting to run.
        this.probe.counters.cancelled++;
        return;
      }
      if (loaded !== this.loaded) return;
      this.dropPrepared();
      if ((error instanceof GpuDeviceLostError || this.session.current === undefined) && retryOnLoss) {
        return this.renderOnce(quality, kind, false);
      }
      this.resolveIds(undefined);
      this.renderMessages = [{ severity: 'error', file: loaded.name, text: (error as Error).message, source: 'render' }];
      this.refreshMessages();
      this.setRenderState('error', `The render failed: ${(error as Error).message}`);
      return;
    } finally {
      if (this.inFlight === cancel) this.inFlight = undefined;
    }
    if (loaded !== this.loaded) return;
    const ms = performance.now() - started;
    this.probe.counters.renders++;
    this.probe.counters.compiles = edits.compiles;
    this.probe.counters.recoveries = this.session.recoveries;
    this.probe.renders.push({
      quality, ms, kind, gridsDiced: rendered.stats.gridsDiced, gridsShaded: rendered.stats.gridsShaded, reuse: rendered.stats.reuse ?? '',
      resolution: rendered.stats.resolution, samples: rendered.stats.pixelSamples,
    });
    this.probe.stats = rendered.stats;
    const size = this.fullSize(frame);
    if (size[0] !== this.canvas.width || size[1] !== this.canvas.height) {
      this.canvas.style.aspectRatio = `${size[0]} / ${size[1]}`;
      this.overlays.resize(size);
    }
    this.viewer.show(rendered.image, loaded.frame, size);
    this.pictureShown = true;
    this.canvas.dataset.quality = quality;
    this.overlays.show({ regions: rendered.regions, outlines: rendered.gridOutlines, crop: rendered.camera.crop });
    if (quality === 'full') {
      this.lastPicture = rendered.image;
      this.saveButton.disabled = false;
      this.copyButton.disabled = false;
    }
    if (quality === 'full' && rendered.primitiveIds) {
      this.resolveIds({ width: rendered.image.width, height: rendered.image.height, ids: rendered.primitiveIds });
      if (this.selected !== undefined) this.overlays.select({ ...this.idImage!, index: this.selected });
    }
    showStats(element<HTMLTableElement>('stats'), rendered.stats);
    showKernelPasses(element('material'), loaded.frame, edits);
    showStageGraph(element('stage-graph'), rendered.stats);
    this.renderMessages = rendered.warnings.flatMap((w) => renderWarning(loaded.name, w));
    this.refreshMessages();
    const pending = this.queue.hasWaiting;
    if (!pending) {
      const errors = this.shownMessages().filter((m) => m.severity === 'error').length;
      const label = quality === 'preview' ? 'Preview' : 'Rendered';
      const withErrors = quality === 'full' && errors ? ` with ${errors} error${errors === 1 ? '' : 's'} (see Messages)` : '';
      this.setRenderState(quality === 'preview' ? 'rendering' : 'complete', `${label} ${loaded.name}${withErrors} in ${ms.toFixed(0)} ms (${rendered.stats.resolution[0]} × ${rendered.stats.resolution[1]}, ${rendered.stats.pixelSamples[0]} × ${rendered.stats.pixelSamples[1]} samples).`);
      // The scene's errors colour the status even though the picture rendered (see Messages).
      if (quality === 'full' && errors) this.status.dataset.state = 'complete-with-errors';
    }
  }

  /** A full-quality render: through the prepared frame for shading-only edits when it kept its
   * grids, else a new prepared frame (which renders the picture once and keeps the grids). */
  private async renderFull(gpu: GpuRuntime, frame: Frame, options: RenderOptions, shadingOnly: boolean): Promise<RenderedFrame> {
    const prepared = this.prepared?.frame;
    // What the page changed since the frame was last read for a full render: the prepared frame
    // re-shades only the grids those edits reach.
    const edits = this.edits!.takeEdits();
    if (shadingOnly && prepared?.retained) {
      try {
        const rendered = await prepared.render(frame, {
          shading: options.shading, onProgress: options.onProgress, primitiveIds: true,
          ...(options.onPixels ? { onPixels: options.onPixels } : {}), gridOutlines: options.gridOutlines,
          ...(options.signal ? { signal: options.signal } : {}), ...(edits ? { edits } : {}),
        });
        if (rendered.stats.reuse?.startsWith('full')) this.dropPrepared();
        return rendered;
      } catch (error) {
        // A cancelled render may leave the prepared frame as it was: the next one needs these edits.
        this.edits!.putBack(edits);
        throw error;
      }
    }
    this.dropPrepared();
    const fresh = await prepareFrame(gpu, frame, options);
    this.prepared = { frame: fresh, runtime: gpu };
    return fresh.first;
  }

  private dropPrepared(): void {
    const prepared = this.prepared;
    this.prepared = undefined;
    try {
      prepared?.frame.dispose();
    } catch {
      // A lost device's buffers need no release.
    }
  }

  /** Shows the fraction done and the time left at the rate so far (once there is a rate to go by). */
  private showProgress(fraction: number, elapsedMs = 0): void {
    this.progress.value = fraction;
    this.progressShown.push(fraction);
    const leftMs = (elapsedMs * (1 - fraction)) / fraction;
    this.timeLeft.textContent = fraction >= 0.05 && fraction < 1 && elapsedMs >= 500 ? `about ${formatDuration(leftMs)} left` : '';
  }

  private resolveIds(ids: IdImage | undefined): void {
    this.idImage = ids;
    const waiters = this.idWaiters;
    this.idWaiters = [];
    for (const resolve of waiters) resolve(ids);
  }

  /** The last full render's primitive ids; when the camera moved since, those of the next one. */
  private currentIds(): Promise<IdImage | undefined> {
    if (this.idImage) return Promise.resolve(this.idImage);
    if (!this.loaded?.frame) return Promise.resolve(undefined);
    const next = new Promise<IdImage | undefined>((resolve) => this.idWaiters.push(resolve));
    if (!this.queue.busy) this.request('full', 'primitive ids');
    return next;
  }

  private addCompileErrors(diagnostics: RslDiagnostic[], refresh = true): void {
    for (const d of diagnostics) {
      const message: Message = { severity: d.severity, file: d.file, line: d.line, column: d.column, text: d.message, source: 'rsl' };
      const same = (m: Message): boolean => m.file === message.file && m.line === message.line && m.column === message.column && m.text === message.text;
      if (!this.loadMessages.some(same)) this.loadMessages.push(message);
    }
    if (refresh) this.refreshMessages();
  }

  /** Shows the messages, each once: a compile error the panels or the opened shaders reported and
   * the render quotes again is one entry. */
  private refreshMessages(): void {
    const file = this.editor.file;
    showMessages(element('messages'), this.shownMessages(), file === undefined ? undefined : {
      file, show: (m) => this.editor.goTo(m.line ?? 1, m.column ?? 1),
    });
  }

  private shownMessages(): Message[] {
    const seen = new Set<string>();
    return [...this.loadMessages, ...this.gpuMessages, ...this.renderMessages].filter((m) => {
      const key = `${m.file}\u0001${m.line}\u0001${m.column}\u0001${m.text}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  private setRenderState(state: 'idle' | 'rendering' | 'complete' | 'error' | 'stopped', text: string): void {
    this.canvas.closest('[data-render-state]')?.setAttribute('data-render-state', state);
    document.body.dataset.renderState = state;
    setStatus(this.status, state, text);
    this.progress.hidden = state !== 'rendering';
    if (state !== 'rendering') this.timeLeft.textContent = '';
    this.stopButton.disabled = state !== 'rendering';
  }

  private deviceLost(message: string): void {
    this.idImage = undefined;
    this.dropPrepared();
    this.gpuMessages.push({ severity: 'warning', file: 'GPU', text: `the device was lost (${message}); re-created it`, source: 'gpu' });
    this.refreshMessages();
    this.request('full', 'after device loss');
  }

  private async pickAt(x: number, y: number): Promise<number> {
    const ids = await this.currentIds();
    if (!ids || x < 0 || y < 0 || x >= ids.width || y >= ids.height) return -1;
    return ids.ids[y * ids.width + x] ?? -1;
  }

  private async select(x: number, y: number): Promise<void> {
    if (!this.loaded?.frame || !this.edits) return;
    let index: number;
    try {
      index = await this.pickAt(x, y);
    } catch (error) {
      this.renderMessages.push({ severity: 'error', file: 'picking', text: (error as Error).message, source: 'gpu' });
      this.refreshMessages();
      return;
    }
    this.selectPrimitive(index >= 0 ? index : undefined);
  }
}

/** file:line:col: [error: | warning: ]text, as the renderer and the compiler position their messages. */
const POSITIONED = /^(.+?):(\d+):(\d+): (?:(error|warning): )?(.*)$/;

/** A renderer warning, at the request it names (file:line:col: ...) or else at the scene; compiler
 * diagnostics quoted on its further lines become their own entries. */
export function renderWarning(scene: string, text: string): Message[] {
  const [first = '', ...rest] = text.split('\n');
  const head = POSITIONED.exec(first);
  const messages: Message[] = [head
    ? { severity: 'warning', file: head[1]!, line: Number(head[2]), column: Number(head[3]), text: head[5]!, source: 'render' }
    : { severity: 'warning', file: scene, text: first, source: 'render' }];
  for (const line of rest) {
    const m = POSITIONED.exec(line);
    if (m) messages.push({ severity: (m[4] ?? 'warning') as 'error' | 'warning', file: m[1]!, line: Number(m[2]), column: Number(m[3]), text: m[5]!, source: 'rsl' });
    else if (line.trim()) messages.push({ severity: 'warning', file: scene, text: line, source: 'render' });
  }
  return messages;
}

/** A time left for the status line: seconds under a minute, else minutes and seconds. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
