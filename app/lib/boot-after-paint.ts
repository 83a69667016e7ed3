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

/** A parked `<link rel="modulepreload">` carries this attribute instead of its `rel`. */
export const PARKED_PRELOAD_ATTRIBUTE = "data-modulepreload";

/** A parked boot module script carries this `type`, which no browser runs. */
export const PARKED_MODULE_TYPE = "text/x-remix-boot";

/**
 * Runs in the <head> (an inline script under the page's CSP nonce). Once the document is parsed and
 * the browser reports its first contentful paint (a `paint` PerformanceObserver; where that is not
 * supported, two animation frames and a task), it turns the parked links back into modulepreloads
 * and replaces the parked script with a live module script of the same text and nonce. A page opened
 * in a background tab paints, and so hydrates, when it is first shown.
 */
export const bootAfterPaintScript = `(function(){var d=document,P=window.PerformanceObserver;function boot(){d.querySelectorAll("link[${PARKED_PRELOAD_ATTRIBUTE}]").forEach(function(l){l.removeAttribute("${PARKED_PRELOAD_ATTRIBUTE}");l.rel="modulepreload"});d.querySelectorAll('script[type="${PARKED_MODULE_TYPE}"]').forEach(function(p){var s=d.createElement("script");s.type="module";s.async=true;s.nonce=p.nonce;s.textContent=p.textContent;p.replaceWith(s)})}function painted(){if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)new P(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();boot()}}).observe({type:"paint",buffered:true});else requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(boot,0)})})}d.readyState==="loading"?d.addEventListener("DOMContentLoaded",painted):painted()})()`;
