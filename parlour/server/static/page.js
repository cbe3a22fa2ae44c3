// What every page's own script builds its elements with; loaded before it (index, "My games", the table
// and the learn page).
"use strict";

// An HTML element with its attributes and children (nodes, or strings: always text, never parsed).
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}
