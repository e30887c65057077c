import type { AccessibilityPort } from '../../../desktop/ports/accessibilityPort';
import type { InputPort } from '../../../desktop/ports/inputPort';
import type { ScreenPort } from '../../../desktop/ports/screenPort';
import type { WindowPort } from '../../../desktop/ports/windowPort';

/** The screen, input and window ports of a Wayland session, or ports that say why it cannot be driven. */
export interface WaylandPorts {
  screen: ScreenPort;
  input: InputPort;
  windows: WindowPort;
  /** The AT-SPI tree, placed on the screen through the compositor's window boxes. */
  accessibility?: AccessibilityPort;
  dispose(): Promise<void>;
}
