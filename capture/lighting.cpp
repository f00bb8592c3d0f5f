#include "capture/lighting.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "capture/views.h"

namespace asg::capture {
namespace {

void SetMatrix(GLint location, const Eigen::Matrix4f& matrix) {
  glUniformMatrix4fv(location, 1, GL_FALSE, matrix.data());
}

void SetVector(GLint location, const Eigen::Vector3f& vector) {
  glUniform3f(location, vector.x(), vector.y(), vector.z());
}

}  // namespace

Sun MakeSun(const scene::World& world, const Eigen::AlignedBox3d& bounds) {
  constexpr double kDegToRad = std::numbers::pi / 180.0;
  const double inclination = std::clamp(world.sun_inclination, -90.0, 90.0) * kDegToRad;
  const double yaw = world.sun_yaw * kDegToRad;
  // The direction the light travels: along the yaw horizontally, downwards by the inclination.
  const Eigen::Vector3d travel(std::cos(inclination) * std::cos(yaw),
                               std::cos(inclination) * std::sin(yaw), -std::sin(inclination));
  Sun sun;
  sun.to_sun = (-travel).cast<float>();
  if (inclination > 0.0) sun.light = Eigen::Vector3f(1.0f, 0.96f, 0.88f) * 0.8f;

  const Eigen::Vector3d centre = bounds.center();
  const double radius = 0.5 * bounds.diagonal().norm() + 1.0;
  const Eigen::Vector3d up =
      std::abs(travel.z()) > 0.999 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ();
  const Eigen::Matrix4f light_view = LookAt(centre - 2.0 * radius * travel, centre, up);
  // Fit the light's orthographic box around the scene's corners.
  Eigen::AlignedBox3f box;
  for (int corner = 0; corner < 8; ++corner) {
    const Eigen::Vector3d p = bounds.corner(static_cast<Eigen::AlignedBox3d::CornerType>(corner));
    box.extend((light_view * Eigen::Vector4f(p.x(), p.y(), p.z(), 1.0f)).head<3>());
  }
  const Eigen::Matrix4f projection =
      Orthographic(box.min().x(), box.max().x(), box.min().y(), box.max().y(), -box.max().z() - 1.0,
                   -box.min().z() + 1.0);
  sun.view_projection = projection * light_view;
  Eigen::Matrix4f bias = Eigen::Matrix4f::Identity() * 0.5f;
  bias(3, 3) = 1.0f;
  bias.block<3, 1>(0, 3).setConstant(0.5f);
  sun.shadow_matrix = bias * sun.view_projection;
  return sun;
}

void DrawShadowMap(const SceneBuffers& buffers, const Sun& sun, const Program& shadow,
                   const ShadowMap& map) {
  map.BindForDrawing();
  glEnable(GL_DEPTH_TEST);
  glDepthMask(GL_TRUE);
  glDepthFunc(GL_LESS);
  glDisable(GL_CULL_FACE);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(2.0f, 4.0f);
  glUseProgram(shadow.id());
  SetMatrix(shadow.Uniform("u_light_view_projection"), sun.view_projection);
  for (const DrawItem& item : buffers.items()) item.mesh->Draw(item.shadow_instances);
  glDisable(GL_POLYGON_OFFSET_FILL);
}

void UseLitProgram(const Program& lit, const LitCamera& camera, const Sun& sun,
                   const SceneBuffers& buffers, const ShadowMap& map) {
  glUseProgram(lit.id());
  SetMatrix(lit.Uniform("u_view_projection"), camera.view_projection);
  SetMatrix(lit.Uniform("u_light_matrix"), sun.shadow_matrix);
  SetVector(lit.Uniform("u_to_sun"), sun.to_sun);
  SetVector(lit.Uniform("u_sun_light"), sun.light);
  SetVector(lit.Uniform("u_eye"), camera.eye.cast<float>());
  glUniform1f(lit.Uniform("u_haze_distance"), static_cast<float>(camera.haze_distance));
  SetVector(lit.Uniform("u_haze_color"), kHazeColor);
  glUniform2f(lit.Uniform("u_height_range"), static_cast<float>(buffers.lowest_ground()),
              static_cast<float>(buffers.highest_ground()));
  glUniform1f(lit.Uniform("u_contour_step"), camera.contour_step);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, map.texture());
  glUniform1i(lit.Uniform("u_shadow_map"), 0);
}

void DrawLitItem(const Program& lit, const DrawItem& item) {
  if (item.terrain) {
    glDisable(GL_CULL_FACE);
  } else {
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
  }
  glUniform1i(lit.Uniform("u_terrain"), item.terrain ? 1 : 0);
  SetVector(lit.Uniform("u_color"), item.color);
  item.mesh->Draw(item.all_instances);
}

void DrawSky(const Program& sky, const Eigen::Matrix4f& view_projection, const Sun& sun,
             GLuint empty_vertex_array) {
  // Last and on the far plane, so that only pixels nothing covered run its shader.
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_FALSE);
  glUseProgram(sky.id());
  SetMatrix(sky.Uniform("u_inverse_view_projection"), view_projection.inverse());
  SetVector(sky.Uniform("u_to_sun"), sun.to_sun);
  SetVector(sky.Uniform("u_haze_color"), kHazeColor);
  glBindVertexArray(empty_vertex_array);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glDepthMask(GL_TRUE);
  glDepthFunc(GL_LESS);
}

}  // namespace asg::capture
