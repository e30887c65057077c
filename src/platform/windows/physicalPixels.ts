import type { BBox } from '../../common/geometry';
import type { ScreenSize } from '../../desktop/ports/screenPort';
import type { UiaHelper } from './uiaHelper';

// The helper is per-monitor DPI aware (PER_MONITOR_AWARE_V2), so its rectangles are physical
// pixels of the virtual screen. GAI's screen pixels are what nut-js grabs, and libnut sees what
// its process is allowed to: physical pixels in a DPI-aware host (VS Code's Electron), but
// coordinates virtualized to 96 DPI in a DPI-unaware node.exe (a 2560-wide monitor at 150% reads
// 1707 wide, and the mouse moves in those units). One ratio, measured once against the size the
// screen port reports, makes the two agree: 1 in an aware host, 1/1.5 in an unaware one.

export class PhysicalPixels {
  private ratio: Promise<number> | undefined;

  constructor(
    private readonly helper: UiaHelper,
    /** The size of GAI's screenshots (ScreenPort.size); without it the ratio is 1. */
    private readonly screenSize?: () => Promise<ScreenSize>,
    private readonly onWarning?: (message: string) => void,
  ) {}

  /** Screen pixels per physical pixel. */
  factor(): Promise<number> {
    this.ratio ??= this.measure().catch((error: unknown) => {
      this.ratio = undefined; // asked again next time
      throw error;
    });
    return this.ratio;
  }

  async box(box: BBox): Promise<BBox> {
    return scaleBox(box, await this.factor());
  }

  private async measure(): Promise<number> {
    if (!this.screenSize) return 1;
    const [answer, size] = await Promise.all([this.helper.request('screen'), this.screenSize()]);
    const desktop = answer.screen as BBox | undefined;
    const primary = answer.primary as BBox | undefined;
    if (!desktop || !(desktop.width > 0) || !(size.width > 0)) return 1;
    // libnut grabs the primary monitor or the whole desktop: either width in physical pixels means they agree.
    if ([desktop.width, primary?.width ?? 0].some((width) => Math.abs(size.width / width - 1) < 0.01)) return 1;
    // Unaware, libnut sees the primary monitor at 96 DPI.
    const physical = primary && primary.width > 0 ? primary.width : desktop.width;
    const ratio = size.width / physical;
    this.onWarning?.(
      `GAI's screenshots are ${size.width} pixels wide and the primary monitor ${physical} physical pixels: this process is not DPI aware, so window and element boxes are scaled by ${ratio.toFixed(3)} (exact on the primary monitor; on monitors at another scale, boxes may be off)`,
    );
    return ratio;
  }
}

export function scaleBox(box: BBox, factor: number): BBox {
  if (factor === 1) return { x: box.x, y: box.y, width: box.width, height: box.height };
  return {
    x: Math.round(box.x * factor),
    y: Math.round(box.y * factor),
    width: Math.round(box.width * factor),
    height: Math.round(box.height * factor),
  };
}
