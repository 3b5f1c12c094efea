// Invalid input: names the file, the JSON pointer and what is wrong (exit code 2).
#pragma once
#include <stdexcept>
#include <string>

namespace symsim {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string pointer, std::string what)
      : std::runtime_error(file + (pointer.empty() ? "" : ": " + pointer) + ": " + what),
        m_file(std::move(file)), m_pointer(std::move(pointer)) {}
  const std::string& file() const { return m_file; }
  const std::string& pointer() const { return m_pointer; }

 private:
  std::string m_file;
  std::string m_pointer;
};

}  // namespace symsim
