; untangle's roles shared by JavaScript and TypeScript (tree-sitter-javascript 0.23.1,
; tree-sitter-typescript 0.23.2). cmake puts this file before javascript.scm and
; typescript.scm when it compiles them into untangle (queries cannot include files).

(import_statement) @import

; functions: declarations, methods, expressions, arrows
(function_declaration name: (identifier) @func.name parameters: (formal_parameters) @func.params body: (statement_block) @func.body) @func
(generator_function_declaration name: (identifier) @func.name parameters: (formal_parameters) @func.params body: (statement_block) @func.body) @func
(method_definition name: (property_identifier) @func.name parameters: (formal_parameters) @func.params body: (statement_block) @func.body) @func
(function_expression parameters: (formal_parameters) @func.params body: (statement_block) @func.body) @func
(arrow_function parameters: (formal_parameters) @func.params body: (_) @func.body) @func
(arrow_function parameter: (identifier) @param body: (_) @func.body) @func

; bindings
(variable_declarator name: (identifier) @assign.target value: (_) @assign.value) @assign
(assignment_expression left: (_) @assign.target right: (_) @assign.value) @assign
(pair key: (property_identifier) @assign.target value: (_) @assign.value) @assign

; calls
(call_expression function: (identifier) @call.name arguments: (arguments) @call.args) @call
(call_expression function: (member_expression object: (_) @call.recv property: (property_identifier) @call.name) arguments: (arguments) @call.args) @call
(new_expression constructor: (_) @call.name arguments: (arguments) @call.args) @call @new
(arguments (_) @arg)

; values
(string) @str
(template_string) @str
(string_fragment) @str.text
(escape_sequence) @str.esc
(template_substitution (_) @str.interp)
(binary_expression left: (_) @concat.part operator: "+" right: (_) @concat.part) @concat
(parenthesized_expression) @paren
(identifier) @ident
(member_expression object: (_) @member.obj property: (property_identifier) @member.prop) @member
(number) @num
(array (_) @elem) @seq

; what functions return, for calls resolved by their receiver's type (resolve.c)
(return_statement (_) @ret)
; control flow that registration and helpers depend on
(if_statement condition: (_) @if.cond consequence: (_) @if.then) @if
(else_clause (_) @if.else)
(for_in_statement left: (identifier) @loop.var operator: "of" right: (_) @loop.iter body: (_) @loop.body) @loop
(for_in_statement left: (_) operator: "of" right: (_) @loop.iter body: (_) @loop.body) @loop
(binary_expression left: (_) operator: "===" right: (_)) @eq
(binary_expression left: (_) operator: "==" right: (_)) @eq
(binary_expression left: (_) operator: "!==" right: (_)) @ne
(binary_expression left: (_) operator: "!=" right: (_)) @ne
(unary_expression operator: "!" argument: (_)) @not
(true) @true
(false) @false
(null) @false
(undefined) @false
