// Small progressive enhancements: the home header turns solid after 20 px of scroll, and
// sections marked .reveal fade in when they come into view (threshold 0.1, 50 px margin).
(function () {
  var SCROLL_SOLID_PX = 20;
  function onScroll() {
    document.documentElement.toggleAttribute("data-scrolled", window.scrollY > SCROLL_SOLID_PX);
  }
  window.addEventListener("scroll", onScroll, { passive: true });
  onScroll();

  // A new page inside the app starts at the top (the router keeps the old scroll position).
  var lastPath = window.location.pathname;
  function scrollTopOnNewPage() {
    if (window.location.pathname !== lastPath) {
      lastPath = window.location.pathname;
      window.scrollTo(0, 0);
    }
  }
  new MutationObserver(scrollTopOnNewPage).observe(document.documentElement, { childList: true, subtree: true });
  window.addEventListener("popstate", scrollTopOnNewPage);

  if (!("IntersectionObserver" in window)) {
    document.documentElement.classList.add("no-reveal");
    return;
  }
  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (entry.isIntersecting) {
        entry.target.classList.add("is-visible");
        observer.unobserve(entry.target);
      }
    });
  }, { threshold: 0.1, rootMargin: "50px" });
  function watch(root) {
    root.querySelectorAll(".reveal:not(.is-visible)").forEach(function (el) { observer.observe(el); });
  }
  // Once per frame at most: the page's first render alone is hundreds of mutations.
  var pending = false;
  new MutationObserver(function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; watch(document); onScroll(); });
  }).observe(document.documentElement, { childList: true, subtree: true });
  watch(document);
})();
