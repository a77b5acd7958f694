import { useEffect, useState, type RefObject } from 'react';

/**
 * Row virtualization for the grid, written here because no library covers it:
 * a virtualizer that places rows at their real pixel offsets (TanStack
 * Virtual does) needs a scroll area as tall as all the rows, and browsers cap
 * an element's height (Chromium near 33.5 million px: at 40 px a row, row
 * 838,861 is the last one reachable of a million). Rows have one fixed
 * height, so the scroll range can be scaled instead: the scroll area is at
 * most MAX_SCROLL_PX tall, its scroll position maps linearly onto the rows'
 * real offsets, and the rows on screen are drawn where the viewport is.
 * Below the cap the mapping is the identity.
 */

/** Well under every engine's cap (Chromium ~33.5M px, Firefox ~17.9M px). */
export const MAX_SCROLL_PX = 8_000_000;

export interface Geometry {
  /** The scroll area's height. */
  height: number;
  /** The first and last row index to render (overscan included); last < first when empty. */
  first: number;
  last: number;
  /** Where row `index` goes within the scroll area. */
  top: (index: number) => number;
  /** The scroll position that centres row `index` in the viewport. */
  scrollTopFor: (index: number) => number;
}

export function geometry(
  total: number,
  rowHeight: number,
  viewport: number,
  scrollTop: number,
  overscan = 10,
  maxScrollPx = MAX_SCROLL_PX,
): Geometry {
  const real = total * rowHeight;
  const height = Math.min(real, maxScrollPx);
  const maxScroll = Math.max(0, height - viewport);
  const realMax = Math.max(0, real - viewport);
  const ratio = maxScroll > 0 ? realMax / maxScroll : 1;
  const scrolled = Math.min(Math.max(0, scrollTop), maxScroll);
  // The real pixel offset of the viewport's top edge.
  const offset = scrolled * ratio;
  return {
    height,
    first: Math.max(0, Math.floor(offset / rowHeight) - overscan),
    last: Math.min(total - 1, Math.ceil((offset + viewport) / rowHeight) + overscan),
    top: (index) => scrolled + index * rowHeight - offset,
    scrollTopFor: (index) => {
      const target = Math.min(Math.max(0, index * rowHeight - (viewport - rowHeight) / 2), realMax);
      return ratio > 0 ? target / ratio : 0;
    },
  };
}

/** The geometry of a scroll element's rows, following its scrolling and its size. */
export function useScaledRows(
  ref: RefObject<HTMLElement | null>,
  total: number,
  rowHeight: number,
): Geometry & { scrollToIndex: (index: number) => void } {
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onScroll = () => setScrollTop(element.scrollTop);
    const resize = new ResizeObserver(() => setViewport(element.clientHeight));
    setViewport(element.clientHeight);
    setScrollTop(element.scrollTop);
    element.addEventListener('scroll', onScroll, { passive: true });
    resize.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      resize.disconnect();
    };
  }, [ref]);
  const shape = geometry(total, rowHeight, viewport, scrollTop);
  return {
    ...shape,
    scrollToIndex: (index) => {
      const element = ref.current;
      if (element) element.scrollTop = shape.scrollTopFor(index);
    },
  };
}
