// Where a panel goes beside the cell it explains: below the cell's row or above it, whichever has
// the room (below when both do), never over the row itself; lined up with the cell and kept inside
// the viewport. Pure geometry, so it is tested under node.

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Placement {
  left: number;
  top: number;
  /** The room on the chosen side: a taller panel is cut to it (and only then scrolls). */
  maxHeight: number;
  side: 'below' | 'above';
}

export function placeBeside(
  cell: Box,
  row: Box,
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  gap = 8,
): Placement {
  const below = viewport.height - row.bottom - 2 * gap;
  const above = row.top - 2 * gap;
  const side = size.height <= below || below >= above ? 'below' : 'above';
  const room = Math.max(0, side === 'below' ? below : above);
  const height = Math.min(size.height, room);
  const top = side === 'below' ? row.bottom + gap : row.top - gap - height;
  const left = Math.max(gap, Math.min(cell.left, viewport.width - size.width - gap));
  return { left, top, maxHeight: room, side };
}
