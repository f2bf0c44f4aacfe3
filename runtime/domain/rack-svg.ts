/** A device mounted in the rack, as the elevation needs it. */
export interface MountedDevice {
  id: number;
  position: number;
  height: number;
  face: string | null;
  /** Whether the user may view it (else it is drawn as blocked space). */
  visible: boolean;
  color: string;
  frontImage: string | null;
  rearImage: string | null;
}

/**
 * A rack elevation drawn as SVG, laid out as NetBox's `RackElevationSVG`: unit numbers on the left, an empty
 * slot per unit, each device as a box over the units it occupies (in its role's colour on the face it is
 * mounted on, hatched on the other face, grey when the user may not view it), linked to the device's page.
 */

export interface RackDrawing {
  rack: { name: string; height: number; start: number; descending: boolean };
  face: string;
  /** The units without expansion: a device appears on its lowest unit, with its height. */
  units: readonly { id: number; device: MountedDevice | null; occupied: boolean; height?: number }[];
  /** Display names of the devices the user may view. */
  names: ReadonlyMap<number, string>;
  siteRoot: string;
  unitWidth: number;
  unitHeight: number;
  legendWidth: number;
  marginWidth: number;
  includeImages: boolean;
}

const BORDER = 2;

const STYLE = `
svg { font-family: -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; font-size: 13px; }
.unit { fill: #6c757d; text-anchor: middle; dominant-baseline: middle; font-size: 11px; }
.slot { fill: #f7f7f7; stroke: #d0d0d0; }
.label { text-anchor: middle; dominant-baseline: middle; }
.blocked { fill: url(#blocked); stroke: #8a8a8a; }
.rear { fill: url(#occupied); stroke: #8a8a8a; }
.rack { fill: none; stroke: #3f3f3f; stroke-width: ${BORDER}px; }
`;

/** Text safe inside XML. */
function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Black or white, whichever reads better on the colour (NetBox's `foreground_color`). */
function foreground(color: string): string {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(color.slice(i, i + 2), 16) || 0) as [number, number, number];
  return r * 0.299 + g * 0.587 + b * 0.114 > 186 ? '#000000' : '#ffffff';
}

/** Cut text to what fits in the width (NetBox's approximation: 0.6 em per character). */
function truncate(text: string, width: number): string {
  const max = Math.floor(width / (13 * 0.6));
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

function hatch(id: string, color: string): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="25" spreadMethod="repeat" gradientTransform="rotate(45, 0, 0)" gradientUnits="userSpaceOnUse"><stop offset="0%" stop-color="#f7f7f7"/><stop offset="50%" stop-color="#f7f7f7"/><stop offset="50%" stop-color="${color}"/><stop offset="100%" stop-color="${color}"/></linearGradient>`;
}

/** The SVG document of one face of a rack. */
export function renderRackSvg(drawing: RackDrawing): string {
  const { rack, unitWidth, unitHeight, legendWidth, marginWidth } = drawing;
  const width = unitWidth + legendWidth + marginWidth + BORDER * 2;
  const height = unitHeight * rack.height + BORDER * 2;
  const x = legendWidth + BORDER;
  const parts: string[] = [];
  // The top left corner of a device's box.
  const top = (position: number, units: number): number =>
    BORDER +
    (rack.descending
      ? Math.trunc((position - rack.start) * unitHeight)
      : Math.trunc((rack.height - position + rack.start) * unitHeight) - Math.trunc(units * unitHeight));

  for (let ru = 0; ru < rack.height; ru += 1) {
    const unit = (rack.descending ? ru + 1 : rack.height - ru) + rack.start - 1;
    const y = BORDER + ru * unitHeight;
    parts.push(`<text class="unit" x="${legendWidth / 2}" y="${y + unitHeight / 2 + BORDER}">${unit}</text>`);
    parts.push(`<rect class="slot" x="${x}" y="${y}" width="${unitWidth}" height="${unitHeight}"/>`);
  }
  for (const unit of drawing.units) {
    if (!unit.occupied || !unit.device) continue;
    const device = unit.device;
    const size = unit.height ?? 1;
    const y = top(unit.id, size);
    const h = Math.trunc(unitHeight * size);
    const box = `x="${x}" y="${y}" width="${unitWidth}" height="${h}"`;
    const name = drawing.names.get(device.id);
    if (!device.visible || name === undefined) {
      parts.push(`<rect class="blocked" ${box}/>`);
      continue;
    }
    const front = device.face === drawing.face;
    const image = drawing.includeImages ? (front ? device.frontImage : device.rearImage) : null;
    const fill = front ? `<rect class="slot" ${box} style="fill: #${device.color}"/>` : `<rect class="rear" ${box}/>`;
    const color = front ? foreground(device.color) : '#000000';
    const label = `<text class="label" x="${x + unitWidth / 2}" y="${y + h / 2}" fill="${color}">${escape(truncate(name, unitWidth))}</text>`;
    const picture = image
      ? `<image href="${escape(`${drawing.siteRoot}/media/${image}`)}" x="${x}" y="${y}" width="${unitWidth}" height="${h}" preserveAspectRatio="xMidYMid slice"/>`
      : '';
    parts.push(
      `<a href="${escape(`${drawing.siteRoot}/dcim/devices/${device.id}/`)}" target="_parent"><title>${escape(name)}</title>${fill}${label}${picture}</a>`,
    );
  }
  parts.push(
    `<rect class="rack" x="${legendWidth + BORDER / 2}" y="${BORDER / 2}" width="${unitWidth + BORDER}" height="${rack.height * unitHeight + BORDER}"/>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<title>${escape(`${rack.name} (${drawing.face})`)}</title>`,
    `<defs><style>${STYLE}</style>${hatch('occupied', '#d7d7d7')}${hatch('blocked', '#ffc0c0')}</defs>`,
    ...parts,
    '</svg>',
  ].join('\n');
}
