// The page's test and debugging hook (see game-page.js); no secrets beyond what the page holds.
interface Window {
  cloister: any;
}
