// Where the scene gallery finds each bundled scene's thumbnail: public/thumbnails/<folder>/<name>.png,
// made by the renderer itself (`npm run thumbnails`, scripts/make-thumbnails.ts) and served by Vite
// as static files under the page's base URL. Read by the page, the script and the thumbnail test,
// so the three agree on the paths and on which scenes have none.

/** Width of every thumbnail in pixels; the height keeps the scene's aspect ratio (Format and CropWindow). */
export const THUMBNAIL_WIDTH = 96;

/**
 * Bundled scenes (by their name under scenes/) that get no thumbnail, and why. The gallery shows a
 * neutral placeholder for them; make-thumbnails skips them; the thumbnail test accepts their
 * missing file. Add a scene here only when it cannot be thumbnailed, with the reason.
 */
export const NO_THUMBNAIL: Readonly<Record<string, string>> = {
  // Both open on a depth-map pass ("zfile" Display, constant white surfaces filling the frame): the
  // page shows their first frame, which is a white square, so a thumbnail would only be white.
  'features/maps/shadow-spotlight-light.rib': 'its only frame renders the shadow map of shadow-spotlight.rib (constant white)',
  'features/frames-depth-map.rib': 'its first frame, the one the page shows, is the depth-map pass (constant white)',
};

/** The thumbnail's path under public/ ("thumbnails/viewer/showcase.png"), or undefined for a scene in NO_THUMBNAIL. */
export function thumbnailPath(sceneName: string): string | undefined {
  if (sceneName in NO_THUMBNAIL) return undefined;
  return `thumbnails/${sceneName.replace(/\.rib(\.gz)?$/i, '')}.png`;
}
