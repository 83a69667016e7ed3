/**
 * The app's JavaScript starts loading after the page's first paint, not alongside its stylesheets.
 *
 * Remix's <Scripts> asks for every module of the page at once (`<link rel="modulepreload">` and a
 * `<script type="module">` that imports the routes and the client entry), so on a slow phone
 * connection ~100 KB of JavaScript competes with the render-blocking CSS and the first paint waits for
 * it. The pages are fully usable before hydration (links and forms work without JavaScript), so the
 * server parks those tags (parkModuleScripts, in entry.server) and the inline script below, in the
 * <head>, puts them back once the browser has painted the page. It restores the exact tags Remix
 * rendered, so hydration finds the document it expects.
 */

/**
 * A parked `<link rel="modulepreload">` carries this attribute instead of its `rel`: empty, or
 * PARKED_ENTRY_CHUNK for a chunk the client entry imports (React, React DOM, Remix).
 */
export const PARKED_PRELOAD_ATTRIBUTE = "data-modulepreload";
export const PARKED_ENTRY_CHUNK = "entry";

/**
 * Preloads put back per task: starting a module fetch costs the main thread 2 to 3 ms on a phone (4x
 * CPU throttling in Chrome), a page has two dozen of them, and three keep each task near 20 ms
 * (six made tasks of 40 to 70 ms, which count as blocking time).
 */
const PRELOADS_PER_TASK = 3;

/** A parked boot module script carries this `type`, which no browser runs. */
export const PARKED_MODULE_TYPE = "text/x-remix-boot";

/**
 * Runs in the <head> (an inline script under the page's CSP nonce). Once the document is parsed and
 * the browser reports its first contentful paint (a `paint` PerformanceObserver; where that is not
 * supported, two animation frames and a task), it turns the parked links back into modulepreloads, a
 * few per task. Then it runs the shared chunks one module script at a time, each in a task of its own, and only
 * then replaces the parked script with a live module script of the same text and nonce. Remix's boot
 * script would run every module of the page in one task (React, React DOM, Remix and the app: tens of
 * milliseconds on a phone, during which a tap waits); chunk by chunk, each task stays short, and the
 * boot script finds them already run. The client entry's chunks (marked by the server) go first,
 * backwards: the build lists each before the chunks it imports, so backwards runs React before React
 * DOM before Remix, and a later chunk finds its imports already run. The other shared chunks follow,
 * backwards too. The entry (which hydrates) and the route modules are left to the boot script, which
 * sets up what they expect. A chunk that fails to load is skipped: the boot script then fails as it
 * would have.
 */
export const bootAfterPaintScript = `(function(){var d=document,P=window.PerformanceObserver;function start(){d.querySelectorAll('script[type="${PARKED_MODULE_TYPE}"]').forEach(function(p){var s=d.createElement("script");s.type="module";s.async=true;s.nonce=p.nonce;s.textContent=p.textContent;p.replaceWith(s)})}function boot(){var links=[].slice.call(d.querySelectorAll("link[${PARKED_PRELOAD_ATTRIBUTE}]")),first=[],rest=[];links.forEach(function(l){var h=l.getAttribute("href")||"";if(l.getAttribute("${PARKED_PRELOAD_ATTRIBUTE}")==="${PARKED_ENTRY_CHUNK}")first.unshift(h);else if(h.indexOf("/_shared/")>=0)rest.unshift(h)});var queue=first.concat(rest);(function restore(){links.splice(0,${PRELOADS_PER_TASK}).forEach(function(l){l.removeAttribute("${PARKED_PRELOAD_ATTRIBUTE}");l.rel="modulepreload"});if(links.length)setTimeout(restore,0);else next()})();function next(){var h=queue.shift();if(!h)return start();var s=d.createElement("script");s.type="module";s.src=h;s.onload=s.onerror=function(){setTimeout(next,0)};d.head.appendChild(s)}}function painted(){if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)new P(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();boot()}}).observe({type:"paint",buffered:true});else requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(boot,0)})})}d.readyState==="loading"?d.addEventListener("DOMContentLoaded",painted):painted()})()`;
