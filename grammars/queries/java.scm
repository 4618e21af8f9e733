; untangle's roles for Java (tree-sitter-java 0.23.5). Capture names are the roles of
; src/parse/syntax.h; the analysis only sees captured nodes, nested by source range.

(package_declaration) @package
(import_declaration) @import

; classes
(class_declaration name: (identifier) @class.name) @class
(enum_declaration name: (identifier) @class.name) @class
(superclass (type_identifier) @class.super)
(superclass (generic_type (type_identifier) @class.super))
(superclass (scoped_type_identifier) @class.super)

; methods and constructors
(method_declaration name: (identifier) @func.name parameters: (formal_parameters) @func.params) @func
(method_declaration body: (block) @func.body)
(constructor_declaration name: (identifier) @func.name parameters: (formal_parameters) @func.params body: (constructor_body) @func.body) @func
(formal_parameter name: (identifier) @param)
(spread_parameter (variable_declarator name: (identifier) @param))
(lambda_expression body: (_) @func.body) @func
(lambda_expression parameters: (identifier) @param)
(lambda_expression parameters: (inferred_parameters (identifier) @param))

; annotations
(marker_annotation name: (_) @deco.name) @deco
(annotation name: (_) @deco.name arguments: (annotation_argument_list) @deco.args) @deco
(annotation_argument_list (_) @arg)
(element_value_pair key: (identifier) @arg.kw.name value: (_) @arg.kw.value) @arg.kw
(element_value_array_initializer (_) @elem) @seq
(array_initializer (_) @elem) @seq
(class_literal) @classref

; bindings: locals, fields, assignments
(variable_declarator name: (identifier) @assign.target value: (_) @assign.value) @assign
(assignment_expression left: (identifier) @assign.target operator: "=" right: (_) @assign.value) @assign
(assignment_expression left: (field_access) @assign.target operator: "=" right: (_) @assign.value) @assign

; calls
(method_invocation name: (identifier) @call.name arguments: (argument_list) @call.args) @call
(method_invocation object: (_) @call.recv)
(object_creation_expression type: (_) @call.name arguments: (argument_list) @call.args) @call @new
(explicit_constructor_invocation arguments: (argument_list) @call.args) @call
(argument_list (_) @arg)

; values
(string_literal) @str
(string_fragment) @str.text
(multiline_string_fragment) @str.text
(escape_sequence) @str.esc
(string_interpolation) @str.interp
(binary_expression left: (_) @concat.part operator: "+" right: (_) @concat.part) @concat
(parenthesized_expression) @paren
(identifier) @ident
(field_access object: (_) @member.obj field: (identifier) @member.prop) @member
(decimal_integer_literal) @num

; declared types, for calls resolved by their receiver's type (resolve.c)
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @decl.name)) @decl
(local_variable_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @decl.name)) @decl
(formal_parameter type: (_) @type name: (identifier) @decl.name) @decl
(return_statement (_) @ret)
