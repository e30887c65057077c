import type { LayoutSource } from '../wayland/grimScreen';
import type { WaylandHelper } from '../wayland/waylandHelper';

/** The monitor GAI's screen-cast stream shows, as the Mutter helper reports it (asked once). */
export class MutterLayout implements LayoutSource {
  private known: Promise<{ width: number; height: number; scale: number }> | undefined;

  constructor(private readonly helper: WaylandHelper) {}

  layout(): Promise<{ width: number; height: number; scale: number }> {
    this.known ??= this.helper.request({ cmd: 'layout' }).then(
      (answer) => ({ width: Number(answer.width), height: Number(answer.height), scale: 1 }),
      (error: unknown) => {
        this.known = undefined;
        throw error;
      },
    );
    return this.known;
  }
}
