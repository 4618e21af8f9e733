; untangle's roles for TypeScript and TSX (tree-sitter-typescript 0.23.2): what differs
; from JavaScript. The shared patterns are in ecmascript.scm, compiled in before this.

; classes
(class_declaration name: (type_identifier) @class.name) @class
(abstract_class_declaration name: (type_identifier) @class.name) @class
(extends_clause value: (identifier) @class.super)

; parameters carry types
(formal_parameters (required_parameter pattern: (identifier) @param))
(formal_parameters (optional_parameter pattern: (identifier) @param))
