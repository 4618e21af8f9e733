// Client-side behaviour of the boards application (see ../../SCENARIO.md).
// - the boards page shows "You have N boards", counted from #owned_boards;
// - "Add new board" reveals the hidden new-board form;
// - the add-board and add-list forms refuse an empty name.
"use strict";

function showError(message) {
  let error = document.getElementById("error");
  if (!error) {
    error = document.createElement("p");
    error.id = "error";
    document.querySelector("h1, h2, h3").after(error);
  }
  error.textContent = message;
}

function requireName(formId, inputId) {
  const form = document.getElementById(formId);
  if (!form) return;
  form.addEventListener("submit", (event) => {
    if (document.getElementById(inputId).value.trim() === "") {
      event.preventDefault();
      showError("Name can't be blank");
    }
  });
}

function countBoards() {
  const count = document.getElementById("boards_count");
  if (!count) return;
  const n = document.querySelectorAll("#owned_boards li").length;
  count.textContent = `You have ${n} ${n === 1 ? "board" : "boards"}`;
}

function revealNewBoardForm() {
  const link = document.getElementById("add_new_board");
  if (!link) return;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const form = document.getElementById("new_board_form");
    form.hidden = false;
    document.getElementById("board_name").focus();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  countBoards();
  revealNewBoardForm();
  requireName("new_board_form", "board_name");
  requireName("new_list_form", "list_name");
});
