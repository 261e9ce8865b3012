// Where each category of request is valid (RI 3.2 "valid scopes"), as data. Block requests are
// checked by the scene builder's block stack instead.

import type { RequestCategory } from './requests.ts';

export interface ScopeRule {
  outsideWorld: boolean;
  insideWorld: boolean;
  insideObject: boolean;
  insideMotion: boolean;
}

export const CATEGORY_SCOPES: Record<Exclude<RequestCategory, 'block'>, ScopeRule> = {
  option: { outsideWorld: true, insideWorld: false, insideObject: false, insideMotion: false },
  attribute: { outsideWorld: true, insideWorld: true, insideObject: true, insideMotion: true },
  transform: { outsideWorld: true, insideWorld: true, insideObject: true, insideMotion: true },
  geometry: { outsideWorld: false, insideWorld: true, insideObject: true, insideMotion: true },
  texture: { outsideWorld: true, insideWorld: true, insideObject: false, insideMotion: false },
  anywhere: { outsideWorld: true, insideWorld: true, insideObject: true, insideMotion: false },
};

/** Why a request of this category is not valid here, or null when it is. */
export function scopeViolation(
  category: RequestCategory, where: { inWorld: boolean; inObject: boolean; inMotion: boolean },
): string | null {
  if (category === 'block') return null;
  const rule = CATEGORY_SCOPES[category];
  if (where.inMotion && !rule.insideMotion) return 'not valid inside MotionBegin/MotionEnd';
  if (where.inObject && !rule.insideObject) return 'not valid inside ObjectBegin/ObjectEnd';
  if (where.inWorld && !rule.insideWorld) return 'not valid inside WorldBegin/WorldEnd';
  if (!where.inWorld && !where.inObject && !rule.outsideWorld) return 'only valid inside WorldBegin/WorldEnd';
  return null;
}
