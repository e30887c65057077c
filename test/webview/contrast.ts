// WCAG 2 contrast of CSS colours as a browser computes them ("rgb(…)", "rgba(…)", "color(srgb …)").

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** Parses a computed colour; throws naming the text when it is not one of the computed forms. */
export function parseColor(text: string): Rgba {
  const rgb = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+))?\s*\)$/.exec(text.trim());
  if (rgb) return { r: Number(rgb[1]), g: Number(rgb[2]), b: Number(rgb[3]), a: rgb[4] === undefined ? 1 : Number(rgb[4]) };
  // color-mix() computes to color(srgb r g b / a) with channels 0..1.
  const srgb = /^color\(srgb\s+([\d.e-]+)\s+([\d.e-]+)\s+([\d.e-]+)(?:\s*\/\s*([\d.e-]+))?\s*\)$/.exec(text.trim());
  if (srgb) return { r: Number(srgb[1]) * 255, g: Number(srgb[2]) * 255, b: Number(srgb[3]) * 255, a: srgb[4] === undefined ? 1 : Number(srgb[4]) };
  throw new Error(`not a computed colour: "${text}"`);
}

/** `top` painted over the opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const mix = (t: number, b: number): number => t * top.a + b * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

/** Layers from the outermost (opaque, the page) to the innermost, composited. */
export function flatten(layers: string[]): Rgba {
  const [first, ...rest] = layers;
  if (first === undefined) throw new Error('no background layers');
  let result = parseColor(first);
  if (result.a < 1) throw new Error(`the outermost background "${first}" is not opaque`);
  for (const layer of rest) result = over(parseColor(layer), result);
  return result;
}

function luminance({ r, g, b }: Rgba): number {
  const channel = (value: number): number => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG contrast ratio of two opaque colours, 1..21. */
export function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
