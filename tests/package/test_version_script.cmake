# cmake/SymsimVersion.cmake: "unknown" outside git; the HEAD commit in a git checkout, with
# "-dirty" once a tracked file changes; the header is rewritten only when its text changes.
#   cmake -DSCRIPT=<cmake/SymsimVersion.cmake> -DWORK=<empty scratch folder> -P test_version_script.cmake
find_package(Git REQUIRED)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/src)

function(expect_commit expected what)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${WORK}/src -DVERSION=9.8.7 -DOUT=${WORK}/v.h -P ${SCRIPT}
                  RESULT_VARIABLE rc)
  file(READ ${WORK}/v.h text)
  if(NOT rc EQUAL 0 OR NOT text MATCHES "SYMSIM_VERSION_STRING \"9.8.7\"" OR
     NOT text MATCHES "SYMSIM_COMMIT_STRING \"${expected}\"")
    message(FATAL_ERROR "${what}: expected commit ${expected}, got (rc ${rc}):\n${text}")
  endif()
endfunction()

expect_commit(unknown "outside git")

function(git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${WORK}/src -c user.name=t -c user.email=t@t ${ARGN}
                  OUTPUT_VARIABLE out OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "git ${ARGN} failed")
  endif()
  set(git_out ${out} PARENT_SCOPE)
endfunction()
file(WRITE ${WORK}/src/a.txt "one\n")
git(init -q)
git(add a.txt)
git(commit -q -m one)
git(rev-parse --short=12 HEAD)
expect_commit(${git_out} "clean checkout")

file(TIMESTAMP ${WORK}/v.h before "%s")
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
expect_commit(${git_out} "unchanged commit")
file(TIMESTAMP ${WORK}/v.h after "%s")
if(NOT before STREQUAL after)
  message(FATAL_ERROR "the header was rewritten although nothing changed (every build would recompile)")
endif()

file(WRITE ${WORK}/src/a.txt "two\n")
expect_commit("${git_out}-dirty" "modified tracked file")
file(REMOVE_RECURSE ${WORK})
