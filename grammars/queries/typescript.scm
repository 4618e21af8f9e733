; untangle's roles for TypeScript and TSX (tree-sitter-typescript 0.23.2): what differs
; from JavaScript. The shared patterns are in ecmascript.scm, compiled in before this.

; classes
(class_declaration name: (type_identifier) @class.name) @class
(abstract_class_declaration name: (type_identifier) @class.name) @class
(extends_clause value: (identifier) @class.super)

; parameters carry types
(formal_parameters (required_parameter pattern: (identifier) @param))
(formal_parameters (optional_parameter pattern: (identifier) @param))

; declared types, for calls resolved by their receiver's type (resolve.c)
(required_parameter pattern: (identifier) @decl.name type: (type_annotation (_) @type)) @decl
(optional_parameter pattern: (identifier) @decl.name type: (type_annotation (_) @type)) @decl
(variable_declarator name: (identifier) @decl.name type: (type_annotation (_) @type)) @decl
(public_field_definition name: (property_identifier) @decl.name type: (type_annotation (_) @type)) @decl
