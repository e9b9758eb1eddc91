/**
 * `node dist/app/bench/elevation.js`: how long drawing the SVG elevation of a 42U rack holding
 * 20 devices takes (the drawing alone, without the database reads of the request).
 */
import { performance } from 'node:perf_hooks';
import { elevationSvg, type ElevationDevice } from '../../models/dcim/rack-elevation';

const rack = { id: 'rack', name: 'R42', site: 'site', u_height: 42, desc_units: false };
const devices: ElevationDevice[] = Array.from({ length: 20 }, (_, i) => ({
  id: `device-${i}`,
  name: `server-${String(i + 1).padStart(2, '0')}.example.net`,
  position: 1 + i * 2,
  height: 2,
  face: i % 4 === 3 ? 'rear' : 'front',
  fullDepth: i % 3 === 0,
  color: ['f44336', '2196f3', '4caf50', 'ffc107'][i % 4],
  visible: i % 7 !== 6,
}));
const options = { face: 'front', unitWidth: 230, unitHeight: 22, legendWidth: 30, displayFullname: true, reserved: new Map([[41, 'spare'], [42, 'spare']]) };

for (let i = 0; i < 500; i++) elevationSvg(rack, devices, options);
const runs = 5000;
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  elevationSvg(rack, devices, options);
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(3);
console.log(`42U rack, 20 devices: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms over ${runs} drawings (target: under 20 ms)`);
