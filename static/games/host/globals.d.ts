// What the page's other scripts put on window for the screen, and what the screen puts
// there for the browser tests and the benchmark.
import type { HostTable } from "./table.js";

export {};

declare global {
  /** Django's JavaScript catalogue (/jsi18n/), a classic script loaded before the modules. */
  var django:
    | {
        gettext(text: string): string;
        interpolate(format: string, values: Record<string, unknown>, named: boolean): string;
      }
    | undefined;

  interface Window {
    hostEngineFigures?: Record<string, number>;
    hostScreen?: { table(): HostTable; queued(): number; asking(): number; redraw(): void };
  }
}
