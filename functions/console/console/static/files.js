// Uploads with progress: the file goes up with XMLHttpRequest, whose upload progress feeds the
// <progress> and the live status text. Up to the direct limit it is the form's own POST; a larger file
// goes through an upload session: the console starts it, the browser PUTs the bytes to the presigned
// URL, and the console completes it. Without this script the form posts the file as it is.
"use strict";

(function () {
  const form = document.querySelector("form.upload");
  if (!form || !window.XMLHttpRequest || !window.FormData) return;
  const input = form.querySelector('input[type="file"]');
  const box = form.querySelector(".upload-progress");
  const bar = form.querySelector("progress");
  const status = form.querySelector(".upload-status");
  const button = form.querySelector('button[type="submit"]');
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const directLimit = Number(form.dataset.directLimit);
  const limitText = (directLimit / 1e6).toFixed(1) + " MB";

  function say(text) { status.textContent = text; }

  function progress(event, file) {
    if (!event.lengthComputable) return;
    const percent = Math.round((event.loaded / event.total) * 100);
    bar.value = percent;
    bar.textContent = percent + "%";
    say("Uploading " + file.name + ": " + percent + "%");
  }

  // The message of the console's error page, or the status when the answer is not one.
  function failure(xhr) {
    if (xhr.responseText) {
      const page = new DOMParser().parseFromString(xhr.responseText, "text/html");
      const message = page.querySelector(".error");
      if (message) return message.textContent.trim();
    }
    return xhr.status ? "the upload was refused (" + xhr.status + ")" : "the connection failed";
  }

  function send(method, url, body, file, headers) {
    return new Promise(function (resolve, reject) {
      const xhr = new XMLHttpRequest();
      xhr.open(method, url);
      Object.keys(headers || {}).forEach(function (name) { xhr.setRequestHeader(name, headers[name]); });
      if (file) xhr.upload.onprogress = function (event) { progress(event, file); };
      xhr.onload = function () { (xhr.status < 400 ? resolve : reject)(xhr); };
      xhr.onerror = function () { reject(xhr); };
      xhr.send(body);
    });
  }

  function direct(file) {
    const body = new FormData();
    body.append("file", file);
    return send("POST", form.action, body, file, { "X-CSRF-Token": token })
      .then(function (xhr) { return xhr.responseURL; });
  }

  function session(file) {
    const start = new FormData();
    start.append("filename", file.name);
    start.append("size_bytes", String(file.size));
    if (file.type) start.append("content_type", file.type);
    return send("POST", form.dataset.sessionUrl, start, null, { "X-CSRF-Token": token })
      .then(function (xhr) {
        const started = JSON.parse(xhr.responseText);
        return send("PUT", started.upload_url, file, file, started.upload_headers).then(
          function () { return started; },
          function (xhr) {
            if (!xhr.status) {
              throw { status: 0, message: "the storage did not take the upload from this browser; upload " +
                "files of at most " + limitText + " here, and larger ones through the API" };
            }
            throw xhr;
          });
      })
      .then(function (started) {
        say("Checking " + file.name + "…");
        return send("POST", started.complete_url, new FormData(), null, { "X-CSRF-Token": token });
      })
      .then(function (xhr) { return xhr.responseURL; });
  }

  form.addEventListener("submit", function (event) {
    const file = input.files && input.files[0];
    if (!file) return;
    event.preventDefault();
    button.disabled = true;
    box.hidden = false;
    bar.value = 0;
    say("Uploading " + file.name + "…");
    (file.size > directLimit ? session(file) : direct(file)).then(
      function (url) { say("Uploaded " + file.name + "."); window.location.assign(url); },
      function (error) {
        button.disabled = false;
        say("Upload of " + file.name + " failed: " + (error.message || failure(error)));
      });
  });
})();
