/*
 * OrgMemory admin — the knowledge-graph page (templates/admin/graph/graph.html).
 *
 * Draws one tenant's graph around an entity as a 2D force-directed layout with force-graph (vendored in
 * static/graph/vendor/force-graph), from the page's JSON endpoint (/admin/graph/data/). Clicking an entity recentres
 * the graph on it; clicking an arrow opens the admin page of the memory that states the link.
 *
 * window.orgGraph publishes the page's state (centre, counts, screen positions) for the browser test and for
 * anyone debugging from the console. Entity names come from memories: they are only ever set as text, never as HTML.
 */
(function () {
  "use strict";

  const configElement = document.getElementById("kg-config");
  if (!configElement || typeof window.ForceGraph !== "function") {
    return; // the user administers no tenant (no controls are rendered), or the library failed to load
  }
  const config = JSON.parse(configElement.textContent);
  const byId = (id) => document.getElementById(id);
  const controls = byId("kg-controls");
  const tenantSelect = byId("kg-tenant");
  const entityInput = byId("kg-entity");
  const entityIdInput = byId("kg-entity-id");
  const entityOptions = byId("kg-entity-options");
  const depthSelect = byId("kg-depth");
  const relationshipSelect = byId("kg-relationship");
  const statusLine = byId("kg-status");
  const container = byId("kg-canvas");
  const legend = byId("kg-legend");

  // Kinds and relationships with their labels and colours: graph.vocabulary, passed in by the template.
  const vocabularyElement = document.getElementById("kg-vocabulary");
  const vocabulary = vocabularyElement ? JSON.parse(vocabularyElement.textContent) : { kinds: {}, relationships: {} };
  const KIND_COLOURS = Object.fromEntries(Object.entries(vocabulary.kinds).map(([value, kind]) => [value, kind.colour]));
  const RELATIONSHIP_COLOURS = Object.fromEntries(
    Object.entries(vocabulary.relationships).map(([value, relationship]) => [value, relationship.colour]),
  );
  const OTHER_COLOUR = "#999999"; // a value the page's vocabulary does not know
  const EDGE_LABELS_UP_TO = 120; // more labels than this only clutter the canvas
  const MAX_FIT_ZOOM = 2; // a small graph fitted to the canvas would otherwise show giant discs
  const LINK_DISTANCE = 90;
  const CHARGE = -260;
  // force-graph refreshes the hidden canvas it hit-tests the pointer against at most every 800 ms
  const HIT_CANVAS_REFRESH_MS = 900;
  const SEARCH_DELAY_MS = 200;

  const textColour =
    getComputedStyle(document.documentElement).getPropertyValue("--body-fg").trim() || "#333333";

  const state = {
    tenant: config.tenant,
    entity: config.entity,
    depth: config.depth,
    relationship: config.relationship || "",
  };
  let centre = null; // {id, name} of the entity the graph is centred on
  let loads = 0; // completed loads, so that a test can wait for the next one
  let settled = false; // the layout of the current load has stopped moving
  let settledAt = 0;
  let inFlight = null; // AbortController of the running request: a newer request cancels it
  let lastError = "";
  let searchResults = new Map(); // lower-cased name -> entity id, from the last search
  let searchTimer = null;

  // --- drawing -------------------------------------------------------------------------------------------------

  function textElement(text) {
    const span = document.createElement("span");
    span.textContent = text;
    return span;
  }

  function plural(count, word, words) {
    return `${count} ${count === 1 ? word : words || `${word}s`}`;
  }

  function nodeRadius(node) {
    return Math.sqrt(nodeValue(node)) * graph.nodeRelSize();
  }

  function nodeValue(node) {
    if (centre && node.id === centre.id) {
      return 10;
    }
    return 2 + Math.min(6, Math.log2(1 + node.mentions));
  }

  function endpointId(end) {
    return typeof end === "object" && end !== null ? end.id : end;
  }

  function drawNodeLabel(node, ctx, scale) {
    const isCentre = centre && node.id === centre.id;
    const fontSize = Math.max(10, 12 / Math.sqrt(scale)) / scale;
    if (isCentre) {
      ctx.beginPath();
      ctx.arc(node.x, node.y, nodeRadius(node) + 2 / scale, 0, 2 * Math.PI);
      ctx.lineWidth = 2 / scale;
      ctx.strokeStyle = textColour;
      ctx.stroke();
    }
    ctx.font = `${isCentre ? "bold " : ""}${fontSize}px sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.fillStyle = textColour;
    ctx.fillText(node.name, node.x, node.y + nodeRadius(node) + 2 / scale);
  }

  function edgeMidpoint(link) {
    const source = link.source;
    const target = link.target;
    if (typeof source !== "object" || typeof target !== "object") {
      return null;
    }
    const controlPoints = link.__controlPoints;
    if (controlPoints && controlPoints.length === 2) {
      // a quadratic Bézier curve at t = 1/2
      return {
        x: 0.25 * source.x + 0.5 * controlPoints[0] + 0.25 * target.x,
        y: 0.25 * source.y + 0.5 * controlPoints[1] + 0.25 * target.y,
      };
    }
    return { x: (source.x + target.x) / 2, y: (source.y + target.y) / 2 };
  }

  function drawEdgeLabel(link, ctx, scale) {
    const middle = edgeMidpoint(link);
    if (!middle || scale < 0.6) {
      return;
    }
    ctx.font = `${10 / scale}px sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = RELATIONSHIP_COLOURS[link.relationship] || OTHER_COLOUR;
    ctx.fillText(link.relationship.replace("_", " "), middle.x, middle.y - 6 / scale);
  }

  const graph = window
    .ForceGraph()(container)
    .width(container.clientWidth)
    .height(container.clientHeight)
    .nodeId("id")
    .nodeVal(nodeValue)
    .nodeColor((node) => KIND_COLOURS[node.kind] || KIND_COLOURS.unknown)
    .nodeLabel((node) =>
      textElement(`${node.name} — ${node.kind}, ${plural(node.mentions, "mention")}. Click to centre on it.`),
    )
    .nodeCanvasObjectMode(() => "after")
    .nodeCanvasObject(drawNodeLabel)
    .linkColor((link) => RELATIONSHIP_COLOURS[link.relationship] || OTHER_COLOUR)
    .linkWidth((link) => 0.5 + 2 * link.confidence)
    .linkCurvature("curvature")
    .linkDirectionalArrowLength(6)
    .linkDirectionalArrowRelPos(0.85)
    .linkCanvasObjectMode(() => "after")
    .linkCanvasObject((link, ctx, scale) => {
      if (graph.graphData().links.length <= EDGE_LABELS_UP_TO) {
        drawEdgeLabel(link, ctx, scale);
      }
    })
    .linkLabel((link) => {
      const source = typeof link.source === "object" ? link.source.name : link.source;
      const target = typeof link.target === "object" ? link.target.name : link.target;
      return textElement(
        `${source} ${link.relationship} ${target} (confidence ${link.confidence.toFixed(2)}) — ` +
          `memory ${link.memory}. Click to open it.`,
      );
    })
    .linkHoverPrecision(6)
    .onNodeHover((node) => {
      container.style.cursor = node ? "pointer" : "";
    })
    .onLinkHover((link) => {
      container.style.cursor = link ? "pointer" : "";
    })
    .onNodeClick((node) => recentre(node.id))
    .onLinkClick((link) => window.location.assign(link.memory_url))
    .cooldownTicks(200)
    .onEngineStop(() => {
      if (!settled) {
        graph.zoomToFit(0, 48);
        if (graph.zoom() > MAX_FIT_ZOOM) {
          graph.zoom(MAX_FIT_ZOOM, 0);
        }
        settled = true;
        settledAt = performance.now();
      }
    });
  graph.d3Force("link").distance(LINK_DISTANCE);
  graph.d3Force("charge").strength(CHARGE);

  // --- data ----------------------------------------------------------------------------------------------------

  function setStatus(message, isError) {
    statusLine.textContent = message;
    statusLine.classList.toggle("error", Boolean(isError));
    lastError = isError ? message : "";
  }

  function queryString() {
    const params = new URLSearchParams({ tenant: String(state.tenant), depth: String(state.depth) });
    if (state.entity) {
      params.set("entity", String(state.entity));
    }
    if (state.relationship) {
      params.set("relationship", state.relationship);
    }
    return params.toString();
  }

  /** Spread parallel links between the same two entities into distinct curves. */
  function assignCurvatures(links) {
    const groups = new Map();
    for (const link of links) {
      const key = link.source < link.target ? `${link.source}-${link.target}` : `${link.target}-${link.source}`;
      if (!groups.has(key)) {
        groups.set(key, []);
      }
      groups.get(key).push(link);
    }
    for (const group of groups.values()) {
      group.forEach((link, index) => {
        const offset = group.length === 1 ? 0 : (index - (group.length - 1) / 2) * 0.3;
        link.curvature = link.source < link.target ? offset : -offset;
      });
    }
  }

  function updateLegend(nodes, links) {
    legend.replaceChildren();
    const kinds = [...new Set(nodes.map((node) => node.kind))].sort();
    const relationships = [...new Set(links.map((link) => link.relationship))].sort();
    for (const kind of kinds) {
      const item = textElement(kind);
      item.className = "kind";
      item.style.setProperty("--swatch", KIND_COLOURS[kind] || KIND_COLOURS.unknown);
      legend.append(item);
    }
    for (const relationship of relationships) {
      const item = textElement(relationship);
      item.className = "relationship";
      item.style.setProperty("--swatch", RELATIONSHIP_COLOURS[relationship] || OTHER_COLOUR);
      legend.append(item);
    }
  }

  function render(payload) {
    centre = payload.centre;
    state.entity = centre ? centre.id : null;
    entityIdInput.value = centre ? String(centre.id) : "";
    entityInput.value = centre ? centre.name : "";
    // entities already on screen keep their place, so recentring moves the picture instead of redrawing it
    const previous = new Map(graph.graphData().nodes.map((node) => [node.id, node]));
    const nodes = payload.nodes.map((node) => {
      const copy = { ...node };
      const before = previous.get(node.id);
      if (before) {
        copy.x = before.x;
        copy.y = before.y;
      }
      if (centre && node.id === centre.id) {
        copy.fx = 0; // the centre stays in the middle; the rest arranges around it
        copy.fy = 0;
      }
      return copy;
    });
    const links = payload.edges.map((edge) => ({ ...edge }));
    assignCurvatures(links);
    settled = false;
    graph.graphData({ nodes, links });
    updateLegend(nodes, links);
    if (!centre) {
      setStatus("This tenant has no entities yet: links appear once memories mention them.");
    } else {
      const filter = state.relationship ? `, only ${state.relationship}` : "";
      const cut = payload.truncated ? ` Cut at ${payload.max_nodes} entities: narrow it with a relationship.` : "";
      setStatus(
        `${plural(nodes.length, "entity", "entities")} and ${plural(links.length, "link")} ` +
          `within ${plural(payload.depth, "hop")} of ${centre.name}${filter}.${cut}`,
      );
    }
    window.history.replaceState(null, "", `?${queryString()}`);
    loads += 1;
  }

  async function load() {
    if (!state.tenant) {
      return;
    }
    if (inFlight) {
      inFlight.abort();
    }
    const controller = new AbortController();
    inFlight = controller;
    setStatus("Loading…");
    let response;
    let payload;
    try {
      response = await fetch(`${config.dataUrl}?${queryString()}`, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
        signal: controller.signal,
      });
      const type = response.headers.get("Content-Type") || "";
      if (!type.startsWith("application/json")) {
        setStatus("Your session has ended: reload the page to sign in again.", true);
        return;
      }
      payload = await response.json();
    } catch (error) {
      if (error.name !== "AbortError") {
        setStatus(`The graph could not be loaded: ${error.message}`, true);
      }
      return;
    } finally {
      if (inFlight === controller) {
        inFlight = null;
      }
    }
    if (!response.ok) {
      const message = payload && payload.error ? payload.error.message : `HTTP ${response.status}`;
      setStatus(`The graph could not be loaded: ${message}.`, true);
      return;
    }
    render(payload);
  }

  function recentre(entityId) {
    state.entity = entityId;
    return load();
  }

  // --- controls ------------------------------------------------------------------------------------------------

  async function search(term) {
    const params = new URLSearchParams({ tenant: String(state.tenant), q: term });
    const response = await fetch(`${config.entitiesUrl}?${params}`, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) {
      return [];
    }
    const results = (await response.json()).results;
    searchResults = new Map(results.map((entity) => [entity.name.toLowerCase(), entity.id]));
    entityOptions.replaceChildren(
      ...results.map((entity) => {
        const option = document.createElement("option");
        option.value = entity.name;
        option.label = `${entity.kind}, ${plural(entity.mentions, "mention")}`;
        return option;
      }),
    );
    return results;
  }

  entityInput.addEventListener("input", () => {
    const chosen = searchResults.get(entityInput.value.trim().toLowerCase());
    if (chosen !== undefined && chosen !== state.entity) {
      recentre(chosen); // picked from the suggestions
      return;
    }
    window.clearTimeout(searchTimer);
    const term = entityInput.value.trim();
    if (term) {
      searchTimer = window.setTimeout(() => search(term), SEARCH_DELAY_MS);
    }
  });

  controls.addEventListener("submit", async (event) => {
    event.preventDefault();
    const term = entityInput.value.trim();
    if (!term) {
      state.entity = null; // the tenant's most mentioned entity
    } else if (!(centre && term === centre.name)) {
      const known = searchResults.get(term.toLowerCase());
      const match = known !== undefined ? known : ((await search(term))[0] || {}).id;
      if (match === undefined) {
        setStatus(`No entity of this tenant matches “${term}”.`, true);
        return;
      }
      state.entity = match;
    }
    load();
  });

  tenantSelect.addEventListener("change", () => {
    state.tenant = Number(tenantSelect.value);
    state.entity = null;
    searchResults = new Map();
    entityOptions.replaceChildren();
    load();
  });
  depthSelect.addEventListener("change", () => {
    state.depth = Number(depthSelect.value);
    load();
  });
  relationshipSelect.addEventListener("change", () => {
    state.relationship = relationshipSelect.value;
    load();
  });
  window.addEventListener("resize", () => {
    graph.width(container.clientWidth).height(container.clientHeight);
  });

  // --- for tests and the console -------------------------------------------------------------------------------

  function screenPoint(x, y) {
    const canvas = container.querySelector("canvas");
    const box = canvas.getBoundingClientRect();
    const point = graph.graph2ScreenCoords(x, y);
    return { x: box.left + point.x, y: box.top + point.y };
  }

  window.orgGraph = {
    // drawn: loaded and the layout stopped moving
    ready: () => loads > 0 && settled && inFlight === null,
    // and clickable where it is drawn (the hit-testing canvas caught up with the final layout)
    interactive: () => loads > 0 && settled && inFlight === null && performance.now() - settledAt > HIT_CANVAS_REFRESH_MS,
    loads: () => loads,
    centre: () => (centre ? centre.id : null),
    error: () => lastError,
    nodeCount: () => graph.graphData().nodes.length,
    edgeCount: () => graph.graphData().links.length,
    nodeIds: () =>
      graph
        .graphData()
        .nodes.map((node) => node.id)
        .sort((a, b) => a - b),
    edges: () =>
      graph.graphData().links.map((link) => ({
        id: link.id,
        source: endpointId(link.source),
        target: endpointId(link.target),
        relationship: link.relationship,
        memory: link.memory,
      })),
    nodeScreenPosition: (id) => {
      const node = graph.graphData().nodes.find((candidate) => candidate.id === id);
      return node ? screenPoint(node.x, node.y) : null;
    },
    edgeScreenPosition: (id) => {
      const link = graph.graphData().links.find((candidate) => candidate.id === id);
      const middle = link ? edgeMidpoint(link) : null;
      return middle ? screenPoint(middle.x, middle.y) : null;
    },
    recentre,
  };

  load();
})();
