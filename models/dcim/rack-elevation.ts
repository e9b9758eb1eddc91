/**
 * Rack elevations: the units of one face with the device in each (Nautobot's
 * Rack.get_rack_units) and their SVG drawing. Pure functions over data read by the action.
 */
import type { Id } from '../../framework';

export interface ElevationDevice {
  id: Id;
  name: string;
  position: number;
  height: number;
  face: string;
  fullDepth: boolean;
  /** Role colour, six hex digits. */
  color: string;
  /** The caller may view it: otherwise its units show as occupied with no device. */
  visible: boolean;
}

export interface ElevationRack {
  id: Id;
  name: string;
  site: Id;
  u_height: number;
  desc_units: boolean;
}

export interface ElevationUnit {
  id: number;
  device: ElevationDevice | null;
  occupied: boolean;
}

/** Unit numbers in display order: top-down, or bottom-up when units are numbered descending. */
export function unitOrder(rack: ElevationRack): number[] {
  const units = Array.from({ length: rack.u_height }, (_, i) => i + 1);
  return rack.desc_units ? units : units.reverse();
}

/**
 * The units of `face`: devices on that face or full depth fill their units; with `expand` false
 * a device keeps only its bottom unit and its other units are dropped from the list.
 */
export function rackUnits(rack: ElevationRack, face: string, devices: readonly ElevationDevice[], expand: boolean): ElevationUnit[] {
  const units = new Map<number, ElevationUnit>();
  for (const u of unitOrder(rack)) units.set(u, { id: u, device: null, occupied: false });
  for (const d of devices) {
    if (d.position < 1 || d.height < 1 || (d.face !== face && !d.fullDepth)) continue;
    const top = d.position + d.height;
    for (let u = d.position; u < top; u++) {
      const unit = units.get(u);
      if (!unit) continue;
      if (!expand && u > d.position) {
        units.delete(u);
        continue;
      }
      unit.occupied = true;
      if (d.visible) unit.device = d;
    }
  }
  return [...units.values()];
}

export interface SvgOptions {
  face: string;
  unitWidth: number;
  unitHeight: number;
  legendWidth: number;
  displayFullname: boolean;
  /** Units reserved, with the reservation's description. */
  reserved: ReadonlyMap<number, string>;
}

const BORDER = 2;

const STYLE = [
  'svg { font-family: -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; font-size: 13px; }',
  'rect { box-sizing: border-box; }',
  '.rack { fill: none; stroke: #606060; stroke-width: 3px; }',
  '.unit { fill: #606060; font-size: 11px; text-anchor: middle; dominant-baseline: middle; }',
  '.slot { fill: #f7f7f7; stroke: #a0a0a0; }',
  '.slot:hover { fill: #fff; }',
  '.device .slot { stroke: #303030; }',
  '.label { fill: #202020; text-anchor: middle; dominant-baseline: middle; }',
  '.add-device { fill: #0d6efd; opacity: 0; text-anchor: middle; dominant-baseline: middle; }',
  'a:hover .add-device { opacity: 1; }',
  '.blocked { fill: #e0e0e0; stroke: #a0a0a0; }',
  '.blocked_partial { fill: #f0f0f0; stroke: #c0c0c0; stroke-dasharray: 4 2; }',
  '.reserved { fill: url(#reserved); stroke: #c08000; }',
].join('\n');

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

/** A rect with its attributes in alphabetical order, as svgwrite writes them. */
function rect(cls: string, x: number, y: number, width: number, height: number, style?: string): string {
  return `<rect class="${cls}" height="${height}" width="${width}" x="${x}" y="${y}"${style ? ` style="${style}"` : ''}/>`;
}

function text(cls: string, x: number, y: number, content: string): string {
  return `<text class="${cls}" x="${x}" y="${y}">${esc(content)}</text>`;
}

/** Black or white text, whichever reads better on the colour. */
function foreground(color: string): string {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(color.slice(i, i + 2), 16) || 0);
  return r * 0.299 + g * 0.587 + b * 0.114 > 150 ? '#000000' : '#ffffff';
}

function truncate(name: string, width: number): string {
  const max = Math.max(4, Math.floor(width / 8));
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}

/**
 * The drawing of one face: unit numbers on the left, each device as a slot in its role colour
 * linking to it, full-depth devices of the other face blocked, devices the caller may not view
 * blocked, reserved units hatched, free units linking to a new device at that position.
 */
export function elevationSvg(rack: ElevationRack, devices: readonly ElevationDevice[], o: SvgOptions): string {
  const order = unitOrder(rack);
  const width = o.unitWidth + o.legendWidth + BORDER * 2;
  const height = o.unitHeight * rack.u_height + BORDER * 2;
  const row = new Map(order.map((u, i) => [u, i]));
  const x0 = o.legendWidth + BORDER;
  const yOf = (u: number) => BORDER + (row.get(u) as number) * o.unitHeight;
  const out: string[] = [
    `<?xml version="1.0" encoding="utf-8" ?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" baseProfile="full" class="rack_elevation" height="${height}" version="1.1" width="${width}">`,
    `<defs><style type="text/css"><![CDATA[\n${STYLE}\n]]></style>`,
    `<pattern height="7" id="reserved" patternTransform="rotate(45)" patternUnits="userSpaceOnUse" width="7"><rect fill="#ffe8a0" height="7" width="7"/><line stroke="#e0b040" stroke-width="3" x1="0" x2="0" y1="0" y2="7"/></pattern></defs>`,
  ];
  for (const u of order) out.push(text('unit', o.legendWidth / 2, yOf(u) + o.unitHeight / 2, String(u)));
  const covered = new Set<number>();
  for (const d of devices) {
    if (d.position < 1 || d.height < 1) continue;
    const units = Array.from({ length: d.height }, (_, i) => d.position + i).filter((u) => row.has(u));
    if (!units.length) continue;
    const sameFace = d.face === o.face;
    if (!sameFace && !d.fullDepth) {
      // A half-depth device on the other face leaves this face free but is worth showing.
      continue;
    }
    units.forEach((u) => covered.add(u));
    const top = Math.min(...units.map(yOf));
    const h = units.length * o.unitHeight;
    const name = o.displayFullname ? d.name : truncate(d.name, o.unitWidth);
    if (!d.visible) {
      out.push(rect('slot blocked', x0, top, o.unitWidth, h));
      continue;
    }
    const cls = sameFace ? 'slot' : 'slot blocked';
    const style = sameFace ? `fill: #${d.color}` : undefined;
    out.push(
      `<a class="device" href="/dcim/devices/${esc(String(d.id))}/" target="_top"><title>${esc(d.name)}</title>`,
      rect(cls, x0, top, o.unitWidth, h, style),
      `<text class="label" style="fill: ${sameFace ? foreground(d.color) : '#606060'}" x="${x0 + o.unitWidth / 2}" y="${top + h / 2}">${esc(name)}</text>`,
      '</a>',
    );
  }
  for (const d of devices) {
    // Half-depth devices on the other face: their units stay free here, drawn as partly blocked.
    if (d.face === o.face || d.fullDepth || d.position < 1 || d.height < 1) continue;
    for (let u = d.position; u < d.position + d.height; u++) {
      if (row.has(u) && !covered.has(u)) out.push(rect('slot blocked_partial', x0, yOf(u), o.unitWidth, o.unitHeight));
    }
  }
  for (const u of order) {
    if (covered.has(u)) continue;
    const y = yOf(u);
    const query = `site=${encodeURIComponent(String(rack.site))}&amp;rack=${encodeURIComponent(String(rack.id))}&amp;face=${o.face}&amp;position=${u}`;
    // A reserved unit stays free for a device: it is hatched and still links to adding one.
    const reservation = o.reserved.get(u);
    out.push(
      `<a href="/dcim/devices/add/?${query}" target="_top">${reservation !== undefined ? `<title>Reserved: ${esc(reservation)}</title>` : ''}`,
      rect(reservation !== undefined ? 'slot reserved' : 'slot', x0, y, o.unitWidth, o.unitHeight),
      text('add-device', x0 + o.unitWidth / 2, y + o.unitHeight / 2, 'add device'),
      '</a>',
    );
  }
  out.push(rect('rack', o.legendWidth + 1, 1, o.unitWidth + 2, height - 2));
  out.push('</svg>');
  return out.join('\n');
}
