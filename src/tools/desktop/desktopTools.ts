import type { DesktopServices } from '../../desktop/desktopServices';
import type { ModelAccess } from '../../model/modelAccess';
import type { AnyTool } from '../toolBase';
import { ClickTool } from './clickTool';
import type { ComputerDisplay } from './computer/computerDisplay';
import { ComputerTool } from './computerTool';
import { CursorPositionTool } from './cursorPositionTool';
import { DragTool } from './dragTool';
import { HoldKeyTool } from './holdKeyTool';
import { ElementTreeTool } from './elementTreeTool';
import { LaunchAppTool } from './launchAppTool';
import { MouseMoveTool } from './mouseMoveTool';
import { OcrTool } from './ocrTool';
import { PressKeyTool } from './pressKeyTool';
import { ScreenCaptureTool } from './screenCaptureTool';
import { ScrollTool } from './scrollTool';
import { SmartScreenReaderTool } from './smartScreenReaderTool';
import { SpotlightTool } from './spotlightTool';
import { TabNavigateTool } from './tabNavigateTool';
import { TypeTextTool } from './typeTextTool';
import { WaitTool } from './waitTool';
import { ZoomTool } from './zoomTool';
import type { InputChoice } from '../inputChoice';

export interface DesktopToolsOptions {
  /** The models the detailed screen reader asks (the only desktop tool that asks one); without, it reads by OCR alone. */
  models?: ModelAccess;
  /** With it, the `computer` tool (native computer use) is offered too, over this display. */
  computerDisplay?: ComputerDisplay;
  /** Why there are no models (e.g. no API key), said by the screen reader instead of "none is configured". */
  noModelReason?: string;
  /** The person's choice of how a plain click by text acts: the pointer (default) or accessibility first. */
  input?: InputChoice;
}

/**
 * The vision and action tools over one desktop: the seed's, in its registration order, then
 * the finer pointer and keyboard tools, then `computer` when a display for it is given.
 */
export function createDesktopTools(services: DesktopServices, options: DesktopToolsOptions = {}): AnyTool[] {
  return [
    new SmartScreenReaderTool(services, options.models, options.noModelReason),
    new ScreenCaptureTool(services),
    new OcrTool(services),
    new ElementTreeTool(services),
    new ClickTool(services, options.input),
    new TypeTextTool(services),
    new PressKeyTool(services),
    new TabNavigateTool(services),
    new ScrollTool(services),
    new SpotlightTool(services),
    new LaunchAppTool(services),
    new ZoomTool(services),
    new CursorPositionTool(services),
    new MouseMoveTool(services),
    new DragTool(services),
    new HoldKeyTool(services),
    new WaitTool(),
    ...(options.computerDisplay ? [new ComputerTool(services, options.computerDisplay)] : []),
  ];
}
