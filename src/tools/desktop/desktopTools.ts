import type { DesktopServices } from '../../desktop/desktopServices';
import type { ModelAccess } from '../../llm/modelAccess';
import type { AnyTool } from '../toolBase';
import { ClickTool } from './clickTool';
import { ElementTreeTool } from './elementTreeTool';
import { LaunchAppTool } from './launchAppTool';
import { OcrTool } from './ocrTool';
import { PressKeyTool } from './pressKeyTool';
import { ScreenCaptureTool } from './screenCaptureTool';
import { ScrollTool } from './scrollTool';
import { SmartScreenReaderTool } from './smartScreenReaderTool';
import { SpotlightTool } from './spotlightTool';
import { TabNavigateTool } from './tabNavigateTool';
import { TypeTextTool } from './typeTextTool';

/** The vision and action tools over one desktop, in the seed's registration order. */
export function createDesktopTools(services: DesktopServices, llm?: ModelAccess): AnyTool[] {
  return [
    new SmartScreenReaderTool(services, llm),
    new ScreenCaptureTool(services),
    new OcrTool(services),
    new ElementTreeTool(services),
    new ClickTool(services),
    new TypeTextTool(services),
    new PressKeyTool(services),
    new TabNavigateTool(services),
    new ScrollTool(services),
    new SpotlightTool(services),
    new LaunchAppTool(services),
  ];
}
