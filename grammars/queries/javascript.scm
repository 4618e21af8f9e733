; untangle's roles for JavaScript (tree-sitter-javascript 0.23.1): what differs from
; TypeScript. The shared patterns are in ecmascript.scm, which is compiled in before this.

; classes
(class_declaration name: (identifier) @class.name) @class
(class_heritage (identifier) @class.super)
(class_heritage (member_expression) @class.super)

; untyped parameters
(formal_parameters (identifier) @param)
(formal_parameters (assignment_pattern left: (identifier) @param))
