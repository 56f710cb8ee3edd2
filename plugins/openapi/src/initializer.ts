/**
 * The script that starts Swagger UI on the page: pointed at the document `json`, with no request
 * leaving the site, and every operation in the page (see `allOperations` below). A file rather
 * than an inline script, so that a Content-Security-Policy without 'unsafe-inline' allows it.
 *
 * @example
 * ```ts
 * initializer('/openapi.json'); // 'window.ui = SwaggerUIBundle({\n  url: "/openapi.json", …'
 * ```
 */
export function initializer(json: string): string {
  // `validatorUrl: null`: Swagger UI would otherwise send the document to validator.swagger.io
  // for its badge, a request leaving the site.
  return `${ALL_OPERATIONS}
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(json)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [allOperations],
  layout: 'BaseLayout',
});
`;
}

// Swagger UI 5.32 and later mount only the operations in view once the list has 150 entries or
// more (tags and operations; no setting turns it off): an app whose `@expose()` handlers answer
// every method documents five operations each, so the showcase's 187 operations showed as 10, and
// the others were not in the page for find-in-page, printing or a test. This plugin puts back the
// component Swagger UI renders below that size: every operation, collapsed (an operation's body
// is built only when opened, so hundreds stay cheap), through Swagger UI's own OperationTag and
// OperationContainer. Tag filtering and `maxDisplayedTags` still apply: they wrap
// `taggedOperations`.
const ALL_OPERATIONS = `function allOperations(system) {
  var h = system.React.createElement;
  function Operations(props) {
    var specSelectors = props.specSelectors;
    var getComponent = props.getComponent;
    var tagged = specSelectors.taggedOperations();
    if (tagged.size === 0) return h('h3', null, ' No operations defined in spec!');
    var OperationTag = getComponent('OperationTag');
    var OperationContainer = getComponent('OperationContainer', true);
    var methods = specSelectors.validOperationMethods();
    return h('div', null, tagged.map(function (tagObj, tag) {
      var blocks = tagObj.get('operations').map(function (op) {
        var path = op.get('path');
        var method = op.get('method');
        if (methods.indexOf(method) === -1) return null;
        return h(OperationContainer, { key: path + '-' + method, specPath: op.get('specPath'), op: op, path: path, method: method, tag: tag });
      }).toArray();
      return h(OperationTag, {
        key: 'operation-' + tag, tagObj: tagObj, tag: tag, getComponent: getComponent, getConfigs: props.getConfigs,
        oas3Selectors: props.oas3Selectors, layoutSelectors: props.layoutSelectors, layoutActions: props.layoutActions, specUrl: specSelectors.url(),
      }, h('div', { className: 'operation-tag-content' }, blocks));
    }).valueSeq().toArray());
  }
  return { components: { operations: Operations } };
}`;
