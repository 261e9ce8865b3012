// One frame, scene in, float picture out; the frame's jobs live in frame/: the job set up before
// any GPU work (frame-job.ts), the frame's buffers (frame-buffers.ts, records batched past one
// binding by record-batches.ts), the FrameGpu with its insight hooks (frame-insight.ts), the budget
// (frame-budget.ts), a render from scratch (render-once.ts), prepared frames that keep their grids
// for shader, light and colour edits (prepared-frame.ts), and the result with its statistics
// (frame-result.ts). The frame's Imager shader runs last, on the filtered pixels (stages/imager.ts).
export { ribBudgetBytes } from './frame/frame-budget.ts';
export { KEEP_SHARE, prepareFrame, type PreparedFrame, type PreparedRenderOptions } from './frame/prepared-frame.ts';
export type { FrameEdit } from './frame/frame-edits.ts';
export { renderFrame } from './frame/render-once.ts';
export type { OutputVariableRequest, RegionKind, RegionReport, RenderedFrame, RenderOptions } from './frame/render-options.ts';
