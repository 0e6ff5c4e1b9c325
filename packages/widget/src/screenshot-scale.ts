// How many pixels a screenshot has for each CSS pixel of the window it shows: the device's own,
// up to a width. Shared by the capture and the cards that show its pictures at the page's size.

/** A screenshot is at most this many pixels wide. */
const SCREENSHOT_MAX_WIDTH = 1600;

/** Pixels of a screenshot for each CSS pixel of a window `windowWidth` wide on a device of `devicePixelRatio`. */
export const screenshotScale = (devicePixelRatio: number, windowWidth: number) =>
  Math.min(devicePixelRatio, SCREENSHOT_MAX_WIDTH / windowWidth);
