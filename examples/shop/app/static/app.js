// Client-side behaviour of the shop application (see ../../README.md).
// - "Add to cart" is enabled once the stock check is done: at once, or after
//   data-stock-check-ms milliseconds (the server makes that late now and then: the
//   intermittent element a test must wait for);
// - the search form refuses an empty query.
"use strict";

function enableAddToCart() {
  const button = document.getElementById("add_to_cart");
  if (!button) return;
  const delay = Number(button.dataset.stockCheckMs || 0);
  const enable = () => { button.disabled = false; };
  if (delay > 0) {
    setTimeout(enable, delay);
  } else {
    enable();
  }
}

function requireQuery() {
  const form = document.getElementById("search_form");
  if (!form) return;
  form.addEventListener("submit", (event) => {
    if (document.getElementById("search_query").value.trim() === "") {
      event.preventDefault();
    }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  enableAddToCart();
  requireQuery();
});
